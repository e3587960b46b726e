import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test server listening on a free loopback port. */
export interface LoopbackServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Drops open (keep-alive) connections, then stops listening. */
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 with a port the system picks: how every fake service of the tests listens. */
export async function listenOnLoopback(server: http.Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A service that cannot be reached: it drops every connection as it comes. Certain, where a connect to a closed
 * "unused" port is not (another test's server may take the port between choosing and connecting).
 */
export function listenDroppingEveryConnection(): Promise<LoopbackServer> {
  return listenOnLoopback(http.createServer().on('connection', (socket) => socket.destroy()));
}

/**
 * Waits `ms` before a fake answers `res`, ending early when the client goes away (a timer never outlives
 * the test); the caller checks `res.destroyed` after it.
 */
export function answerDelay(ms: number, res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(resolve, ms);
    timer.unref();
    res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

import net from 'node:net';

/** A loopback TCP proxy in front of a shared service, to give processes an outage of their own. */
export interface TcpProxy {
  readonly port: number;
  /** Connections currently relayed. */
  connections(): number;
  /**
   * The outage: destroys every relayed connection (clients see their server go away) and closes every new
   * one at once (as a port nobody listens on would) until restore().
   */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port relaying to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  const destroyAll = () => {
    for (const { client, upstream } of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    connections: () => pairs.size,
    cut() {
      down = true;
      destroyAll();
    },
    restore() {
      down = false;
    },
    close() {
      destroyAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

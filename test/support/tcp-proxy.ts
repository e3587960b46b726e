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
  /**
   * The silent outage (a network cut, a host gone without a reset): relays nothing either way, closes
   * nothing, and holds new connections, until restore() lets what waited through as TCP would.
   */
  blackhole(): void;
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

/** Starts a proxy on a free loopback port relaying to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let mode: 'relay' | 'cut' | 'blackhole' = 'relay';
  const relay = ({ client, upstream }: Pair) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  // Unread bytes stay in the kernel's buffers; once they fill, the sender's window closes.
  const hold = ({ client, upstream }: Pair) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const server = net.createServer((client) => {
    if (mode === 'cut') {
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
    if (mode === 'blackhole') hold(pair);
    else relay(pair);
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
      mode = 'cut';
      destroyAll();
    },
    blackhole() {
      mode = 'blackhole';
      for (const pair of pairs) hold(pair);
    },
    restore() {
      if (mode === 'blackhole') for (const pair of pairs) relay(pair);
      mode = 'relay';
    },
    close() {
      destroyAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

import net from 'node:net';

/** One HTTP response as read off the wire. */
export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  /** The first response, or undefined when the connection ended (or the wait ran out) without one. */
  response: RawResponse | undefined;
  /** Milliseconds from connecting to the complete response (or to the end of the wait). */
  ms: number;
  /** Whether the server closed the connection within the wait. */
  closedByServer: boolean;
}

/** A pause between two writes of rawExchange. */
export interface Pause {
  waitMs: number;
}

function parseResponse(data: Buffer): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!Number.isFinite(status)) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = data.subarray(end + 4);
  if (body.length < length) return undefined;
  return { status, headers, body: body.subarray(0, length).toString('utf8') };
}

/**
 * Sends bytes exactly as given over a fresh TCP connection (what an HTTP library would refuse to send),
 * pausing where told, and reads the first response. Resolves once the response is complete (or, with
 * `untilClosed`, once the server has also closed the connection), or after `timeoutMs`.
 */
export function rawExchange(
  port: number,
  parts: ReadonlyArray<string | Buffer | Pause>,
  options: { timeoutMs?: number; untilClosed?: boolean } = {},
): Promise<RawExchange> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let response: RawResponse | undefined;
    let respondedMs: number | undefined;
    let settled = false;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, ms: respondedMs ?? Date.now() - started, closedByServer });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (response) return;
      response = parseResponse(data);
      if (!response) return;
      respondedMs = Date.now() - started;
      if (!options.untilClosed) finish(false);
    });
    // 'end': the server closed its side; 'close' also covers a reset.
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // A reset while we still write is the server refusing the rest: what we read so far stands.
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      void (async () => {
        for (const part of parts) {
          if (settled || socket.destroyed) return;
          if (typeof part === 'string' || Buffer.isBuffer(part)) socket.write(part);
          else await new Promise((r) => setTimeout(r, part.waitMs));
        }
      })();
    });
  });
}

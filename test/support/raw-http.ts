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

function decodeChunked(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The first final response in `data`; `closed`: the server has closed, so what is there is all there is. */
function parseResponse(data: Buffer, options: { noBody?: boolean; closed?: boolean }): RawResponse | undefined {
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
    if (!Number.isFinite(status)) return undefined;
    const body = rest.subarray(end + 4);
    // An interim answer (100 Continue) comes before the real one.
    if (status < 200) {
      rest = body;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (options.noBody || status === 204 || status === 304) return { status, headers, body: '' };
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (body.length < length) return undefined;
      return { status, headers, body: body.subarray(0, length).toString('utf8') };
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const decoded = decodeChunked(body);
      return decoded ? { status, headers, body: decoded.toString('utf8') } : undefined;
    }
    return options.closed ? { status, headers, body: body.toString('utf8') } : undefined;
  }
}

/**
 * Sends bytes exactly as given over a fresh TCP connection (what an HTTP library would refuse to send),
 * pausing where told, and reads the first response (`noBody`: the answer to a HEAD). Resolves once the
 * response is complete (or, with `untilClosed`, once the server has also closed the connection), or after
 * `timeoutMs`.
 */
export function rawExchange(
  port: number,
  parts: ReadonlyArray<string | Buffer | Pause>,
  options: { timeoutMs?: number; untilClosed?: boolean; noBody?: boolean } = {},
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
      if (!response && closedByServer) response = parseResponse(data, { noBody: options.noBody, closed: true });
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, ms: respondedMs ?? Date.now() - started, closedByServer });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (response) return;
      response = parseResponse(data, { noBody: options.noBody });
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

import crypto from 'node:crypto';
import http, {
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { AppConfig } from '@research/core';
import type { Logger } from '@research/observability';

// Slightly above common load-balancer idle timeouts, so the proxy closes first.
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
// How long a connection refused with a raw error answer may linger before it is destroyed.
const REFUSED_LINGER_MS = 2_000;

interface ClientErrorAnswer {
  status: number;
  detail: string;
}

// llhttp's reasons are fixed texts of the parser (never request bytes); anything else gets a generic text.
const PARSER_REASON = /^[A-Za-z0-9 `'.,:/_-]{1,120}$/;

/** The status and `detail` of a request Node's HTTP parser refused before the app saw it. */
function clientErrorAnswer(error: NodeJS.ErrnoException & { reason?: unknown }): ClientErrorAnswer {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        detail: `Request line and headers too large (limit ${Math.floor(http.maxHeaderSize / 1024)} KiB).`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, detail: 'Chunk extensions too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'The request was not received in time.' };
  }
  const reason = typeof error.reason === 'string' && PARSER_REASON.test(error.reason) ? error.reason : undefined;
  return { status: 400, detail: reason ? `Malformed HTTP request: ${reason}.` : 'Malformed HTTP request.' };
}

function rawResponse(answer: ClientErrorAnswer, requestId: string): string {
  const body = JSON.stringify({ detail: answer.detail });
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-ID: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Answers what Node's parser refused (malformed request line or headers, oversized headers, a client
 * too slow to send its request) with a JSON `{"detail": …}` and closes the connection. Nothing is
 * written when the socket cannot take it or a response on it has already begun.
 */
function answerClientError(logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // The parser reports again for every later chunk of a refused request: answer once.
    if (socket.writableEnded || socket.destroyed) return;
    const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = clientErrorAnswer(error);
    const requestId = crypto.randomUUID();
    logger.info('request refused by the HTTP parser', {
      request_id: requestId,
      status: answer.status,
      code: error.code,
    });
    // end(), not destroy(): closing with unread input would reset the connection before the client reads the answer.
    socket.end(rawResponse(answer, requestId));
    socket.setTimeout(REFUSED_LINGER_MS, () => socket.destroy());
  };
}

/** Node answers any `Expect` but 100-continue with a bare 417; this one says why, in the API's shape. */
function refuseExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ detail: 'Expect: only 100-continue is supported.' });
  // The body is never read: closing spares reading it.
  res.writeHead(417, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-ID': crypto.randomUUID(),
    Connection: 'close',
  });
  res.end(body);
}

interface Drain {
  /** Marks every later response `Connection: close` and closes each connection once its response is out. */
  start(): void;
}

const drains = new WeakMap<Server, Drain>();

function trackResponses(server: Server): Drain {
  const open = new Set<ServerResponse>();
  let draining = false;
  const closeFinished = () => {
    server.closeIdleConnections();
    // Only connections still sending a request head remain: no request is in flight on them.
    if (open.size === 0) server.closeAllConnections();
  };
  // Registered before the app, so the header is set before any handler can send a response.
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    open.add(res);
    res.once('close', () => {
      open.delete(res);
      if (draining) closeFinished();
    });
  });
  return {
    start() {
      draining = true;
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
      closeFinished();
    },
  };
}

/**
 * How often Node checks the header and request deadlines, so the most a client can run past one. Node's
 * default, 30 s, would let it run over by as much.
 */
export function deadlineCheckIntervalMs(config: AppConfig): number {
  return Math.min(1_000, Math.ceil(config.http.headersTimeoutMs / 4));
}

/**
 * The HTTP server of the API: header and request deadlines a slow client cannot stretch, JSON answers
 * to requests Node's parser refuses, and a drain for closeServer.
 */
export function createHttpServer(app: RequestListener, config: AppConfig, logger: Logger): Server {
  const { headersTimeoutMs, requestTimeoutMs } = config.http;
  const server = http.createServer({
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: deadlineCheckIntervalMs(config),
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  drains.set(server, trackResponses(server));
  server.on('request', app);
  server.on('clientError', answerClientError(logger));
  server.on('checkExpectation', refuseExpectation);
  return server;
}

/** Starts the HTTP server on the configured host and port; resolves once it listens. */
export function listen(app: RequestListener, config: AppConfig, logger: Logger): Promise<Server> {
  const server = createHttpServer(app, config, logger);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * Stops accepting, lets requests in flight finish (their responses say `Connection: close`), and closes
 * each connection as soon as it has no request in flight; resolves when the last one is closed.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    drains.get(server)?.start();
  });
}

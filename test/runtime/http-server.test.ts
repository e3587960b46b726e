import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@research/core';
import { createSilentLogger } from '@research/observability';
import { closeServer, createHttpServer, deadlineCheckIntervalMs, listen } from '@research/runtime';
import { buildTestApp, UNKNOWN_ID, type TestApp } from '../http/support';
import { rawExchange, type RawExchange } from '../support/raw-http';

const MiB = 1024 * 1024;
const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 3_000;

function expectJsonError(exchange: RawExchange, status: number): string {
  expect(exchange.response).toBeDefined();
  const { response } = exchange;
  expect(response!.status).toBe(status);
  expect(response!.headers['content-type']).toMatch(/^application\/json/);
  expect(response!.headers['x-request-id']).toBeTruthy();
  const body = JSON.parse(response!.body) as { detail: unknown };
  expect(Object.keys(body)).toEqual(['detail']);
  expect(typeof body.detail).toBe('string');
  return body.detail as string;
}

describe("the API's HTTP server", () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp('httpserver', {
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        // Configured (never reached): the routes read their bodies only when their provider is set.
        VISION_BASE_URL: 'http://127.0.0.1:9/v1',
        VISION_MODEL: 'unused',
        VISION_MAX_IMAGE_BYTES: String(2 * MiB),
        AUDIO_BASE_URL: 'http://127.0.0.1:9/v1',
        AUDIO_MODEL: 'unused',
        AUDIO_MAX_BYTES: String(3 * MiB),
      },
    });
    server = await listen(t.app, t.ctx.config, createSilentLogger());
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await closeServer(server);
    await t.close();
  });

  describe("answers what Node's parser refuses with a JSON {detail} and closes the connection", () => {
    it.each([
      ['a malformed request line', 'GARBAGE\r\n\r\n', 400],
      ['an unknown method', 'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['an unknown HTTP version', 'GET /health HTTP/9.9\r\nHost: x\r\n\r\n', 400],
      ['a header name with a space', 'GET /health HTTP/1.1\r\nHost: x\r\nX Bad: 1\r\n\r\n', 400],
      ['a control character in a header value', 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', 400],
      ['Content-Length: -1', 'POST /v1/research HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', 400],
      [
        'Content-Length with Transfer-Encoding',
        'POST /v1/research HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
      ],
      [
        'two Content-Lengths',
        'POST /v1/research HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
        400,
      ],
      ['20 KB of headers', `GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['a 20 KB URL', `GET /v1/research?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ])('%s', async (_label, raw, status) => {
      const exchange = await rawExchange(port, [raw], { untilClosed: true });
      const detail = expectJsonError(exchange, status);
      expect(exchange.response!.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
      if (status === 431) expect(detail).toBe('Request line and headers too large (limit 16 KiB).');
      else expect(detail).toMatch(/^Malformed HTTP request/);
    });

    it('an Expect other than 100-continue (Node answered a bare 417)', async () => {
      const exchange = await rawExchange(port, ['GET /health HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n'], {
        untilClosed: true,
      });
      expect(expectJsonError(exchange, 417)).toBe('Expect: only 100-continue is supported.');
      expect(exchange.closedByServer).toBe(true);
      const continued = await rawExchange(port, [
        'POST /v1/research HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\n' +
          `X-API-Key: ${t.owner.key}\r\nContent-Length: 2\r\n\r\n`,
        { waitMs: 50 },
        '{}',
      ]);
      expect(expectJsonError(continued, 422)).toBe('query: Required');
    });

    it('keeps serving afterwards', async () => {
      const ok = await rawExchange(port, ['GET /health HTTP/1.1\r\nHost: x\r\n\r\n']);
      expect(ok.response?.status).toBe(200);
    });
  });

  describe('slow clients', () => {
    it('cuts off a body sent at 1 byte per second at HTTP_REQUEST_TIMEOUT_MS with 408', async () => {
      const head =
        'POST /v1/research HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `X-API-Key: ${t.owner.key}\r\nContent-Length: 100\r\n\r\n`;
      const trickle = Array.from({ length: 100 }, () => [{ waitMs: 1_000 }, ' ']).flat();
      const exchange = await rawExchange(port, [head, ...trickle], { timeoutMs: 20_000, untilClosed: true });
      expect(expectJsonError(exchange, 408)).toBe('The request was not received in time.');
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(exchange.ms).toBeLessThan(REQUEST_TIMEOUT_MS + deadlineCheckIntervalMs(t.ctx.config) + 1_000);
    });

    it('cuts off headers sent a byte at a time at HTTP_HEADERS_TIMEOUT_MS with 408', async () => {
      const trickle = Array.from('X-Slow: 1234567890\r\n'.repeat(5)).flatMap((c) => [{ waitMs: 200 }, c]);
      const exchange = await rawExchange(port, ['GET /health HTTP/1.1\r\n', ...trickle], {
        timeoutMs: 20_000,
        untilClosed: true,
      });
      expectJsonError(exchange, 408);
      expect(exchange.ms).toBeLessThan(HEADERS_TIMEOUT_MS + deadlineCheckIntervalMs(t.ctx.config) + 1_000);
    });

    it('cuts a slow client off within 60 s by default', () => {
      const defaults = loadConfig({});
      const server = createHttpServer(() => undefined, defaults, createSilentLogger());
      expect(server.requestTimeout).toBe(defaults.http.requestTimeoutMs);
      expect(server.headersTimeout).toBe(defaults.http.headersTimeoutMs);
      // The deadline plus how late Node may notice it: the longest a client can hold a request open.
      expect(defaults.http.requestTimeoutMs + deadlineCheckIntervalMs(defaults)).toBeLessThanOrEqual(60_000);
      expect(defaults.http.headersTimeoutMs).toBeLessThanOrEqual(defaults.http.requestTimeoutMs);
    });

    it('refuses a header deadline beyond the request deadline at start', () => {
      expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' })).toThrow(
        /HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/,
      );
    });
  });

  describe('answers 413 from Content-Length before reading the body, and closes the connection', () => {
    const head = (method: string, path: string, length: number, headers: Record<string, string> = {}) =>
      [
        `${method} ${path} HTTP/1.1`,
        'Host: x',
        `Content-Length: ${length}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        '',
        '',
      ].join('\r\n');

    it.each([
      ['POST /v1/research', 'POST', '/v1/research'],
      ['GET of a run (no body expected)', 'GET', `/v1/research/${UNKNOWN_ID}`],
      ['POST /search', 'POST', '/search'],
      ['POST /crawler/fetch', 'POST', '/crawler/fetch'],
    ])('%s declaring 99,999,999,999 bytes', async (_label, method, path) => {
      const headers = { 'Content-Type': 'application/json', 'X-API-Key': t.owner.key };
      const exchange = await rawExchange(port, [head(method, path, 99_999_999_999, headers)], { untilClosed: true });
      expect(expectJsonError(exchange, 413)).toBe('Request body too large (limit 1 MiB).');
      expect(exchange.response!.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.ms).toBeLessThan(2_000);
    });

    // The body limit is each route's own, judged right before its parser: the key check and routing
    // come first, and neither reads the body.
    it.each([
      ['POST /v1/research without a key', 'POST', '/v1/research', 401],
      ['POST /vision/analyze without a key', 'POST', '/vision/analyze', 401],
      ['an unknown path', 'POST', '/nowhere', 404],
    ])(
      '%s declaring 99,999,999,999 bytes is answered without its body, and the connection closed',
      async (_label, method, path, status) => {
        const exchange = await rawExchange(
          port,
          [head(method, path, 99_999_999_999, { 'Content-Type': 'application/json' })],
          { untilClosed: true },
        );
        expectJsonError(exchange, status);
        expect(exchange.response!.headers.connection).toBe('close');
        expect(exchange.closedByServer).toBe(true);
        expect(exchange.ms).toBeLessThan(2_000);
      },
    );

    it('holds each route to its own limit: vision reads base64 images above 1 MiB', async () => {
      const headers = { 'Content-Type': 'application/json', 'X-API-Key': t.owner.key };
      const visionLimit = Math.ceil((2 * MiB * 4) / 3) + 64 * 1024;
      const over = await rawExchange(port, [head('POST', '/vision/analyze', visionLimit + 1, headers)], {
        untilClosed: true,
      });
      expect(expectJsonError(over, 413)).toBe(`Request body too large (limit ${visionLimit} bytes).`);
      expect(over.closedByServer).toBe(true);

      // 1.5 MiB is within the vision limit: the route reads it and judges the image.
      const body = JSON.stringify({ image_base64: 'A'.repeat(1.5 * MiB) });
      const within = await rawExchange(port, [head('POST', '/vision/analyze', body.length, headers), body]);
      expect(expectJsonError(within, 422)).toBe('image_base64: must be a PNG, JPEG, GIF or WebP image');
    });

    // body-parser reads a chunked body to its end before it answers: the chunks here end.
    it('names the same limit when a chunked body (no Content-Length) is counted past it', async () => {
      const chunked = (path: string, bytes: number) => {
        const chunk = `{"image_base64": "${'A'.repeat(bytes)}`;
        return rawExchange(port, [
          [
            `POST ${path} HTTP/1.1`,
            'Host: x',
            'Content-Type: application/json',
            'Transfer-Encoding: chunked',
            `X-API-Key: ${t.owner.key}`,
            '',
            `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
          ].join('\r\n'),
        ]);
      };
      const visionLimit = Math.ceil((2 * MiB * 4) / 3) + 64 * 1024;
      const vision = await chunked('/vision/analyze', visionLimit);
      expect(expectJsonError(vision, 413)).toBe(`Request body too large (limit ${visionLimit} bytes).`);
      const research = await chunked('/v1/research', MiB);
      expect(expectJsonError(research, 413)).toBe('Request body too large (limit 1 MiB).');
    });

    it('holds each route to its own limit: audio uploads up to AUDIO_MAX_BYTES, JSON up to 1 MiB', async () => {
      const multipart = { 'Content-Type': 'multipart/form-data; boundary=XyZ', 'X-API-Key': t.owner.key };
      const json = { 'Content-Type': 'application/json', 'X-API-Key': t.owner.key };
      const upload = await rawExchange(port, [head('POST', '/audio/transcribe', 5 * MiB, multipart)], {
        untilClosed: true,
      });
      expectJsonError(upload, 413);
      expect(upload.closedByServer).toBe(true);
      const urlBody = await rawExchange(port, [head('POST', '/audio/transcribe', 1.5 * MiB, json)]);
      expect(expectJsonError(urlBody, 413)).toBe('Request body too large (limit 1 MiB).');

      // A file of AUDIO_MAX_BYTES with its fields and framing is within the limit: nothing is answered
      // before the body has come.
      const waiting = await rawExchange(port, [head('POST', '/audio/transcribe', 3 * MiB + 64 * 1024, multipart)], {
        timeoutMs: 500,
      });
      expect(waiting.response).toBeUndefined();
      expect(waiting.closedByServer).toBe(false);
    });
  });
});

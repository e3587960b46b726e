import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, ApiError } from '../api/client';
import type { RunEventItem } from '../api/report-types';
import { followRunEvents } from './event-stream';

const frame = (seq: number, type: string, fields: Record<string, unknown> = {}) =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify({ seq, type, at: '2026-01-01T00:00:00.000Z', ...fields })}\n\n`;

/** A loopback API whose stream drops once, mid-frame, and then serves the rest after Last-Event-ID. */
function startApi() {
  const seen: { key?: string; lastEventId?: string; accept?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({
      key: req.headers['x-api-key'] as string | undefined,
      lastEventId: req.headers['last-event-id'] as string | undefined,
      accept: req.headers.accept,
    });
    if (!req.url?.startsWith('/v1/research/run-1/events')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"Research run not found"}');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    if (seen.length === 1) {
      res.write('retry: 50\n\n' + frame(1, 'state', { state: 'created' }) + frame(2, 'state', { state: 'searching' }));
      res.write(frame(3, 'query', { query: 'Zürich 😀' }) + frame(4, 'query', { query: 'lost' }).slice(0, 30));
      setTimeout(() => res.destroy(), 20);
      return;
    }
    const after = Number(req.headers['last-event-id'] ?? 0);
    const rest = [
      frame(3, 'query', { query: 'repeat' }),
      frame(4, 'query', { query: 'b' }),
      frame(5, 'end', { state: 'completed' }),
    ];
    res.end('retry: 50\n\n' + rest.slice(Math.max(0, after - 2)).join(''));
  });
  return new Promise<{ server: http.Server; seen: typeof seen; base: string }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, seen, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe('followRunEvents', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  beforeEach(async () => {
    api = await startApi();
  });
  afterEach(() => new Promise((resolve) => api.server.close(resolve)));

  it('resumes a dropped stream after the last event it read, with the key and Last-Event-ID, until end', async () => {
    const events: RunEventItem[] = [];
    const errors: [unknown, boolean][] = [];
    await followRunEvents({
      api: new ApiClient('key-1', () => {}, api.base),
      id: 'run-1',
      signal: new AbortController().signal,
      onEvents: (batch) => events.push(...batch),
      onError: (error, retrying) => errors.push([error, retrying]),
    });
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events[2]).toMatchObject({ query: 'Zürich 😀' });
    expect(api.seen).toEqual([
      { key: 'key-1', lastEventId: undefined, accept: 'text/event-stream' },
      { key: 'key-1', lastEventId: '3', accept: 'text/event-stream' },
    ]);
    expect(errors.filter(([e]) => e !== null).map(([, retrying]) => retrying)).toEqual([true]);
  });

  it('stops for good on a refusal such as 404', async () => {
    const errors: [unknown, boolean][] = [];
    await followRunEvents({
      api: new ApiClient('key-1', () => {}, api.base),
      id: 'unknown',
      signal: new AbortController().signal,
      onEvents: () => {},
      onError: (error, retrying) => errors.push([error, retrying]),
    });
    expect(errors).toEqual([[new ApiError(404, 'Research run not found'), false]]);
    expect(api.seen).toHaveLength(1);
  });
});

import { ApiError, runPath, type ApiClient } from '../api/client';
import type { RunEventItem } from '../api/report-types';
import { SseDecoder } from './sse';

/** Until the server says otherwise (`retry:`), a dropped stream is opened again after this long. */
const DEFAULT_RETRY_MS = 2000;

export interface FollowOptions {
  api: ApiClient;
  id: string;
  signal: AbortSignal;
  /** Each read's events, in order. */
  onEvents: (events: RunEventItem[]) => void;
  /**
   * A failure: `retrying` when the stream will be opened again (a dropped connection, a 5xx), not when the
   * API refused it for good (401, 404, …). Called with null once the stream is open again.
   */
  onError: (error: unknown, retrying: boolean) => void;
}

function eventsOf(messages: { data: string }[]): RunEventItem[] {
  const events: RunEventItem[] = [];
  for (const m of messages) {
    try {
      const item = JSON.parse(m.data) as RunEventItem;
      if (typeof item.seq === 'number' && typeof item.type === 'string') events.push(item);
    } catch {
      // Not an event (nothing the API sends): skipped.
    }
  }
  return events;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** Reads one connection until it closes; true when the run's `end` came. */
async function readOnce(options: FollowOptions, decoder: SseDecoder): Promise<boolean> {
  const { api, id, signal } = options;
  const lastId = decoder.state.lastEventId;
  const response = await api.fetch('GET', runPath(id, '/events'), {
    accept: 'text/event-stream',
    signal,
    headers: lastId ? { 'Last-Event-ID': lastId } : undefined,
  });
  options.onError(null, false);
  if (!response.body) throw new Error('The event stream has no body');
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    const events = eventsOf(decoder.push(value));
    if (events.length > 0) options.onEvents(events);
    if (events.some((e) => e.type === 'end')) {
      await reader.cancel();
      return true;
    }
  }
}

/**
 * Follows a run's progress stream until its `end` or until `signal` aborts. A dropped connection is opened
 * again after the server's `retry:` (2 s by default) with `Last-Event-ID`, so it resumes after the last
 * event read; a refusal that retrying cannot change (4xx) stops it.
 */
export async function followRunEvents(options: FollowOptions): Promise<void> {
  const { signal } = options;
  let decoder = new SseDecoder();
  while (!signal.aborted) {
    try {
      if (await readOnce(options, decoder)) return;
    } catch (error) {
      if (signal.aborted) return;
      const lasting = error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
      options.onError(error, !lasting);
      if (lasting) return;
    }
    // A new connection starts a new parse (a frame cut off by the drop is lost), resuming after the last id.
    decoder = new SseDecoder(decoder.state);
    await sleep(decoder.state.retry ?? DEFAULT_RETRY_MS, signal);
  }
}

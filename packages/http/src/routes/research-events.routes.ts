import type { Request, Response } from 'express';
import { AppError } from '@research/core';
import { listRunEvents, type RunEventRow } from '@research/database';
import type { AppContext } from '../context';
import { visibleRunOf } from '../request-scope';
import type { RunEventHub } from '../run-event-hub';
import { parseQuery } from '../validation';
import { runEventsQuerySchema, type RunEventItem, type RunEventsResponse } from './research-events.schemas';

/** A stream whose client reads slower than the run writes is ended past this much unsent output. */
const MAX_UNSENT_BYTES = 1 << 20;

/** One event as clients see it: its number, type and time, then its own fields. */
export function presentRunEvent(row: RunEventRow): RunEventItem {
  return { ...row.data, seq: row.seq, type: row.type, at: row.at.toISOString() };
}

/** `Last-Event-ID` (an EventSource's reconnect) wins over `?after=`. */
function resumeAfter(req: Request, after: number): number {
  const header = req.get('last-event-id');
  if (header === undefined || header.trim() === '') return after;
  if (!/^\d{1,9}$/.test(header.trim())) {
    throw new AppError('validation', 'Last-Event-ID: must be the number of an event (an integer >= 0)');
  }
  return Number(header.trim());
}

function sseFrame(item: RunEventItem): string {
  return `id: ${item.seq}\nevent: ${item.type}\ndata: ${JSON.stringify(item)}\n\n`;
}

/**
 * Streams the run's events as Server-Sent Events: the stored ones after `after`, then each as it is
 * written, a comment line every keep-alive interval, and the stream closes after the `end` event.
 */
function streamRunEvents(
  hub: RunEventHub,
  keepAliveMs: number,
  at: { req: Request; res: Response; runId: string; after: number },
): void {
  const { req, res } = at;
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  // nginx and similar proxies would otherwise buffer the stream.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(`retry: 2000\n\n`);
  let open = true;
  const finish = () => {
    if (!open) return;
    open = false;
    clearInterval(keepAlive);
    unsubscribe();
    res.end();
  };
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
  const unsubscribe = hub.subscribe(at.runId, at.after, (events) => {
    if (!open) return;
    if (events === null) return finish();
    for (const row of events) res.write(sseFrame(presentRunEvent(row)));
    if (events.some((e) => e.type === 'end') || res.writableLength > MAX_UNSENT_BYTES) finish();
  });
  req.on('close', finish);
}

/**
 * GET /v1/research/{id}/events (after the key and the run are checked): the run's progress, as Server-Sent Events when the client asks for
 * `text/event-stream`, else as JSON pages (`items`, `next_after`). Read rules as GET /v1/research/{id}.
 */
export function runEventsHandler(ctx: AppContext, hub: RunEventHub) {
  return async (req: Request<{ id: string }>, res: Response): Promise<void> => {
    const run = visibleRunOf(res, req.params.id);
    const query = parseQuery(runEventsQuerySchema, req.query);
    const after = resumeAfter(req, query.after);
    if (req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream') {
      // A client that has seen the end (an EventSource reconnects after every close) is told to stop: 204.
      const [end] = await listRunEvents(ctx.db, run.id, { types: ['end'], limit: 1 });
      if (end && end.seq <= after) {
        res.status(204).end();
        return;
      }
      streamRunEvents(hub, ctx.config.http.eventsKeepAliveMs, { req, res, runId: run.id, after });
      return;
    }
    const rows = await listRunEvents(ctx.db, run.id, { after, limit: query.limit });
    const items = rows.map(presentRunEvent);
    res.json({ items, next_after: items.at(-1)?.seq ?? after } satisfies RunEventsResponse);
  };
}

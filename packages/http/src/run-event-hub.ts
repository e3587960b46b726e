import { listRunEvents, listRunEventsAfter, type Database, type RunEventRow } from '@research/database';
import type { Logger } from '@research/observability';

/** Receives a run's new events in order, or `null` when the hub closes (the process shuts down). */
export type RunEventListener = (events: readonly RunEventRow[] | null) => void;

interface Watched {
  /** The last event number the hub has handed to this run's listeners. */
  cursor: number;
  listeners: Set<RunEventListener>;
}

export interface RunEventHubOptions {
  /** How often the open streams' runs are read for new events (default 100 ms). */
  pollMs?: number;
  logger: Logger;
}

/** Events read for all watched runs in one poll at most; more are read at once by the next poll. */
const POLL_LIMIT = 1000;

/**
 * The live side of GET /v1/research/{id}/events in one API process: every run some open stream watches is
 * read in ONE statement per poll (events after each run's cursor), whatever the number of streams, and the
 * new events go to that run's listeners. Events are written by whichever process works on the run (a worker,
 * this or another API process) in the transaction of what they describe, so reading the database is what
 * makes any process's stream see them. No poll runs while no stream is open.
 */
export class RunEventHub {
  private readonly watched = new Map<string, Watched>();
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly options: RunEventHubOptions,
  ) {
    this.pollMs = options.pollMs ?? 100;
  }

  /**
   * Calls `listener` with the run's events after `after` as they are written: first what is already stored,
   * then each poll's news. Returns the unsubscribe function.
   */
  subscribe(runId: string, after: number, listener: RunEventListener): () => void {
    if (this.closed) {
      listener(null);
      return () => undefined;
    }
    let sent = after;
    const deliver: RunEventListener = (events) => {
      if (events === null) return listener(null);
      const fresh = events.filter((e) => e.seq > sent);
      if (fresh.length === 0) return;
      sent = fresh[fresh.length - 1]!.seq;
      listener(fresh);
    };
    // Watched first, then the history read: whatever the hub reads from now on is buffered, and the history
    // holds everything it read before, so nothing falls between the two (`deliver` drops repeats).
    const buffered: RunEventRow[][] = [];
    let replayed = false;
    const watcher: RunEventListener = (events) => {
      if (!replayed && events !== null) buffered.push([...events]);
      else deliver(events);
    };
    this.watch(runId, after, watcher);
    const unsubscribe = () => this.unwatch(runId, watcher);
    void this.replay(runId, after).then((history) => {
      // Unread history would leave a gap: the stream ends and the client resumes from what it has.
      if (history === null) {
        unsubscribe();
        return listener(null);
      }
      deliver(history);
      for (const events of buffered) deliver(events);
      buffered.length = 0;
      replayed = true;
    });
    return unsubscribe;
  }

  /** Ends every stream (their listeners get null) and stops polling. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const listeners = [...this.watched.values()].flatMap((w) => [...w.listeners]);
    this.watched.clear();
    for (const listener of listeners) listener(null);
  }

  private watch(runId: string, after: number, listener: RunEventListener): void {
    const entry = this.watched.get(runId);
    if (entry) entry.listeners.add(listener);
    else this.watched.set(runId, { cursor: after, listeners: new Set([listener]) });
    this.schedule();
  }

  private unwatch(runId: string, listener: RunEventListener): void {
    const entry = this.watched.get(runId);
    if (!entry) return;
    entry.listeners.delete(listener);
    if (entry.listeners.size === 0) this.watched.delete(runId);
  }

  /** The run's stored events after `after`, all of them, in pages; null when they could not be read. */
  private async replay(runId: string, after: number): Promise<RunEventRow[] | null> {
    const history: RunEventRow[] = [];
    try {
      for (let from = after; ;) {
        const page = await listRunEvents(this.db, runId, { after: from, limit: POLL_LIMIT });
        history.push(...page);
        if (page.length < POLL_LIMIT) return history;
        from = page[page.length - 1]!.seq;
      }
    } catch (error) {
      this.options.logger.warn('run events could not be read; the stream ends for the client to resume', { error });
      return null;
    }
  }

  private schedule(delay = this.pollMs): void {
    if (this.timer || this.polling || this.closed || this.watched.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll();
    }, delay);
  }

  private async poll(): Promise<void> {
    this.polling = true;
    let full = false;
    try {
      const cursors = [...this.watched].map(([runId, w]) => ({ runId, after: w.cursor }));
      const rows = await listRunEventsAfter(this.db, cursors, POLL_LIMIT);
      full = rows.length === POLL_LIMIT;
      for (const [runId, events] of groupByRun(rows)) {
        const entry = this.watched.get(runId);
        if (!entry) continue;
        entry.cursor = events[events.length - 1]!.seq;
        for (const listener of [...entry.listeners]) listener(events);
      }
    } catch (error) {
      this.options.logger.warn('run events could not be read; the next poll tries again', { error });
    } finally {
      this.polling = false;
      this.schedule(full ? 0 : this.pollMs);
    }
  }
}

function groupByRun(rows: readonly RunEventRow[]): Map<string, RunEventRow[]> {
  const out = new Map<string, RunEventRow[]>();
  for (const row of rows) {
    const list = out.get(row.run_id);
    if (list) list.push(row);
    else out.set(row.run_id, [row]);
  }
  return out;
}

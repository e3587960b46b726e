import type { Kysely } from 'kysely';
import { DependencyUnavailableError, TimeoutError, withTimeout, REVIEW_STATE, TERMINAL_STATES } from '@research/core';
import { connectPostgres, type DatabaseHandle } from '../connection';
import { poolOf } from '../prepared';
import type { DB, Db, RunRow } from '../schema';

// First key of every run lock: keeps run locks apart from any other advisory lock in the database.
const RUN_LOCK_SPACE = 0x52534e31; // 'RSN1'

/** What a running step polls to notice a cancellation or another writer: one primary-key lookup. */
export function findRunProgress(
  db: Db,
  id: string,
): Promise<Pick<RunRow, 'state' | 'is_hidden' | 'checkpoint_seq'> | undefined> {
  return db
    .selectFrom('research_runs')
    .select(['state', 'is_hidden', 'checkpoint_seq'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export type UnfinishedRun = Pick<RunRow, 'id' | 'state' | 'request_id' | 'enqueued_at' | 'created_at'>;

/** One page of unfinished, visible runs (not those awaiting review) after the (created_at, id) cursor: the reconciler walks them all. */
export function listUnfinishedRunsAfter(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<UnfinishedRun[]> {
  let query = db
    .selectFrom('research_runs')
    .select(['id', 'state', 'request_id', 'enqueued_at', 'created_at'])
    .where('state', 'not in', TERMINAL_STATES)
    // A run awaiting review of its plan needs no job until it is approved.
    .where('state', '!=', REVIEW_STATE)
    .where('is_hidden', '=', false);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
      ]),
    );
  }
  return query.orderBy('created_at').orderBy('id').limit(limit).execute();
}

/** A held run lock; release() unlocks it and returns its connection to the pool. */
export interface RunLock {
  /**
   * Aborted when the lock's connection is lost (database restarted, network cut, a session that stopped
   * answering): Postgres drops the lock with the session, so another worker may take the run; the holder
   * must stop and give it back.
   */
  readonly lost: AbortSignal;
  /** Unlocks and returns the connection; never waits longer than the lock's query bound. */
  release(): Promise<void>;
}

/** How a run lock's session is watched. The holder must notice a silent session before the server frees its lock. */
export interface RunLockTiming {
  /** How often a held lock's session is asked `select 1`. */
  heartbeatMs: number;
  /** Longest a lock's query (take, heartbeat, unlock) may go unanswered: then its connection counts as lost. */
  queryTimeoutMs: number;
  /**
   * Server side: a lock session that sent nothing for this long is ended, and its lock freed for another
   * worker (idle_session_timeout). Above heartbeatMs + queryTimeoutMs, so the holder has stopped by then.
   */
  idleSessionTimeoutMs: number;
}

/**
 * A holder cut off from the database without a reset (network cut, host down) stops within 10 s; the server
 * frees its lock within 20 s of its last heartbeat. TCP keepalive alone would take minutes, or hours on the
 * server's side.
 */
export const RUN_LOCK_TIMING: Readonly<RunLockTiming> = Object.freeze({
  heartbeatMs: 5_000,
  queryTimeoutMs: 5_000,
  idleSessionTimeoutMs: 20_000,
});

const timingsByDatabase = new WeakMap<object, RunLockTiming>();

/**
 * Opens the pool run locks are taken from (tryLockRun): one connection per held lock, so size it above the
 * worker's concurrency. Its sessions are watched with `timing` (internal; tests shorten it).
 */
export function connectRunLockPool(
  url: string,
  options: { max: number; applicationName: string; timing?: RunLockTiming },
): DatabaseHandle {
  const timing = options.timing ?? RUN_LOCK_TIMING;
  if (timing.idleSessionTimeoutMs <= timing.heartbeatMs + timing.queryTimeoutMs)
    throw new Error('A run lock session must outlive a heartbeat and its query bound');
  const handle = connectPostgres(url, {
    max: options.max,
    applicationName: options.applicationName,
    idleSessionTimeoutMs: timing.idleSessionTimeoutMs,
    // A pooled session idle between locks is closed by the pool before the server ends it.
    idleTimeoutMs: Math.min(10_000, Math.floor(timing.idleSessionTimeoutMs / 2)),
  });
  timingsByDatabase.set(handle.db, timing);
  return handle;
}

/** A lock session's query, bounded: a session that does not answer in time counts as lost (an outage). */
async function lockQuery<T>(query: Promise<T>, timing: RunLockTiming, what: string): Promise<T> {
  try {
    return await withTimeout(query, timing.queryTimeoutMs, what);
  } catch (error) {
    if (!(error instanceof TimeoutError)) throw error;
    throw new DependencyUnavailableError(`The database did not answer the ${what} in time`, { cause: error });
  }
}

/**
 * Takes the session advisory lock of a run on a connection reserved for as long as the lock is held,
 * or returns null when another live process holds it. Postgres drops the lock by itself when the
 * holder's connection dies (SIGKILL, crash), so "locked" always means "a live worker is on this run".
 * Use the pool of connectRunLockPool, so held locks never starve queries and silent sessions are found
 * (other pools get RUN_LOCK_TIMING's heartbeat without the server-side bound). The session is a pg client
 * of its own rather than a Kysely connection: only the client tells when its socket dies while it sits idle
 * holding the lock; a heartbeat tells when it silently stopped answering.
 */
export async function tryLockRun(db: Kysely<DB>, runId: string): Promise<RunLock | null> {
  const pool = poolOf(db);
  if (!pool) throw new Error('Run locks need a Postgres server (a pool opened by connectPostgres)');
  const timing = timingsByDatabase.get(db) ?? RUN_LOCK_TIMING;
  const client = await pool.connect();
  const lost = new AbortController();
  const onError = (error: Error) => lost.abort(error);
  client.on('error', onError);
  let locked: boolean;
  try {
    const { rows } = await lockQuery(
      client.query<{ locked: boolean }>('select pg_try_advisory_lock($1::int, hashtext($2)) as locked', [
        RUN_LOCK_SPACE,
        runId,
      ]),
      timing,
      'run lock request',
    );
    locked = rows[0]?.locked === true;
  } catch (error) {
    client.off('error', onError);
    client.release(error as Error);
    throw error;
  }
  if (!locked) {
    client.off('error', onError);
    client.release();
    return null;
  }
  let beating = false;
  const heartbeat = setInterval(() => {
    if (beating || lost.signal.aborted) return;
    beating = true;
    lockQuery(client.query('select 1'), timing, 'run lock heartbeat')
      .catch((error: unknown) => lost.abort(error))
      .finally(() => {
        beating = false;
      });
  }, timing.heartbeatMs);
  heartbeat.unref();
  let released: Promise<void> | undefined;
  return {
    lost: lost.signal,
    release() {
      released ??= (async () => {
        clearInterval(heartbeat);
        client.off('error', onError);
        if (lost.signal.aborted) {
          // The session is gone (or unusable) and its lock with it, or soon (idle_session_timeout): the
          // broken client leaves the pool.
          client.release(lost.signal.reason as Error);
          return;
        }
        try {
          await lockQuery(
            client.query('select pg_advisory_unlock($1::int, hashtext($2))', [RUN_LOCK_SPACE, runId]),
            timing,
            'run lock release',
          );
          client.release();
        } catch (error) {
          // A lost connection already dropped the lock server-side (a silent one drops it soon).
          client.release(error as Error);
        }
      })();
      return released;
    },
  };
}

import { sql, type Kysely, type Transaction } from 'kysely';
import { poolOf } from '../prepared';
import type { DB, RunRow } from '../schema';

type Db = Kysely<DB> | Transaction<DB>;

const END_STATES = ['completed', 'failed', 'cancelled'];

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

/** Gives back the attempt a worker counted when it handed the run back on shutdown (not a crash). */
export function releaseRunAttempt(db: Db, id: string) {
  return db
    .updateTable('research_runs')
    .set({ attempts: sql<number>`greatest(attempts - 1, 0)` })
    .where('id', '=', id)
    .where('state', 'not in', END_STATES)
    .executeTakeFirst();
}

export type UnfinishedRun = Pick<RunRow, 'id' | 'state' | 'request_id' | 'enqueued_at' | 'created_at'>;

/** One page of unfinished, visible runs after the (created_at, id) cursor: the reconciler walks them all. */
export function listUnfinishedRunsAfter(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<UnfinishedRun[]> {
  let query = db
    .selectFrom('research_runs')
    .select(['id', 'state', 'request_id', 'enqueued_at', 'created_at'])
    .where('state', 'not in', END_STATES)
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
   * Aborted when the lock's connection is lost (database restarted, network cut): Postgres has dropped
   * the lock with the session, so another worker may take the run; the holder must stop and give it back.
   */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

/**
 * Takes the session advisory lock of a run on a connection reserved for as long as the lock is held,
 * or returns null when another live process holds it. Postgres drops the lock by itself when the
 * holder's connection dies (SIGKILL, crash), so "locked" always means "a live worker is on this run".
 * Use a pool of its own (connectPostgres), sized above the worker's concurrency, so held locks never
 * starve queries. The session is a pg client of its own rather than a Kysely connection: only the
 * client tells when its socket dies while it sits idle holding the lock.
 */
export async function tryLockRun(db: Kysely<DB>, runId: string): Promise<RunLock | null> {
  const pool = poolOf(db);
  if (!pool) throw new Error('Run locks need a Postgres server (a pool opened by connectPostgres)');
  const client = await pool.connect();
  const lost = new AbortController();
  const onError = (error: Error) => lost.abort(error);
  client.on('error', onError);
  let locked: boolean;
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock($1::int, hashtext($2)) as locked',
      [RUN_LOCK_SPACE, runId],
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
  let released: Promise<void> | undefined;
  return {
    lost: lost.signal,
    release() {
      released ??= (async () => {
        client.off('error', onError);
        if (lost.signal.aborted) {
          // The session is gone and its lock with it; the broken client leaves the pool.
          client.release(lost.signal.reason as Error);
          return;
        }
        try {
          await client.query('select pg_advisory_unlock($1::int, hashtext($2))', [RUN_LOCK_SPACE, runId]);
          client.release();
        } catch (error) {
          // A lost connection already dropped the lock server-side.
          client.release(error as Error);
        }
      })();
      return released;
    },
  };
}

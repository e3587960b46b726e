import { sql, type Kysely, type Transaction } from 'kysely';
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
  release(): Promise<void>;
}

/**
 * Takes the session advisory lock of a run on a connection reserved for as long as the lock is held,
 * or returns null when another live process holds it. Postgres drops the lock by itself when the
 * holder's connection dies (SIGKILL, crash), so "locked" always means "a live worker is on this run".
 * Use a pool of its own, sized above the worker's concurrency, so held locks never starve queries.
 */
export async function tryLockRun(db: Kysely<DB>, runId: string): Promise<RunLock | null> {
  let requestRelease!: () => void;
  const releaseRequested = new Promise<void>((resolve) => (requestRelease = resolve));
  let decide!: (locked: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  const session = db.connection().execute(async (conn) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${RUN_LOCK_SPACE}::int, hashtext(${runId})) as locked`.execute(conn);
    const locked = rows[0]?.locked === true;
    decide(locked);
    if (!locked) return;
    await releaseRequested;
    await sql`select pg_advisory_unlock(${RUN_LOCK_SPACE}::int, hashtext(${runId}))`.execute(conn);
  });
  // A session that fails before deciding (no connection) rejects here.
  const locked = await Promise.race([decided, session.then(() => false)]);
  if (!locked) {
    await session;
    return null;
  }
  let released: Promise<void> | undefined;
  return {
    release() {
      if (!released) {
        requestRelease();
        // A lost connection already dropped the lock server-side.
        released = session.catch(() => undefined);
      }
      return released;
    },
  };
}

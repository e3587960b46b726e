import { sql } from 'kysely';
import type { Db } from '../schema';

/** Runs a trivial query; throws the driver's error (readiness reports its type, pingDatabase hides it). */
export async function probeDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Hides and cancels the run only while it is still visible: of two concurrent soft deletes exactly one
 * succeeds (and writes the audit record). Returns whether this call hid it.
 */
export async function hideVisibleRun(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('research_runs')
    .set({ is_hidden: true, state: 'cancelled', updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

import { sql } from 'kysely';
import type { Db } from '../schema';

/** Runs a trivial query; throws the driver's error (readiness reports its type, pingDatabase hides it). */
export async function probeDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

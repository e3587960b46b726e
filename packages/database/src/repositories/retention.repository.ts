import { sql } from 'kysely';
import type { Db, RetentionRow } from '../schema';

export function insertRetentionRecord(
  db: Db,
  record: { research_id: string; owner_user_id: string | null; query: string },
) {
  return db.insertInto('retention_records').values(record).execute();
}

export function findRetentionRecord(db: Db, researchId: string): Promise<RetentionRow | undefined> {
  return db.selectFrom('retention_records').selectAll().where('research_id', '=', researchId).executeTakeFirst();
}

/** Locks the record for the rest of the transaction (password checks then writes). */
export function findRetentionRecordForUpdate(db: Db, researchId: string): Promise<RetentionRow | undefined> {
  return db
    .selectFrom('retention_records')
    .selectAll()
    .where('research_id', '=', researchId)
    .forUpdate()
    .executeTakeFirst();
}

export function setRetentionPassword(db: Db, researchId: string, passwordHash: string | null) {
  return db
    .updateTable('retention_records')
    .set({ password_hash: passwordHash, updated_at: sql<Date>`now()` })
    .where('research_id', '=', researchId)
    .executeTakeFirst();
}

export function hideRetentionRecord(db: Db, researchId: string) {
  return db
    .updateTable('retention_records')
    .set({ is_hidden: true, hidden_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('research_id', '=', researchId)
    .executeTakeFirst();
}

export function listHiddenRetentionRecords(db: Db): Promise<RetentionRow[]> {
  return db
    .selectFrom('retention_records')
    .selectAll()
    .where('is_hidden', '=', true)
    .orderBy('hidden_at', 'desc')
    .orderBy('research_id', 'desc')
    .execute();
}

export function deleteRetentionRecord(db: Db, researchId: string) {
  return db.deleteFrom('retention_records').where('research_id', '=', researchId).executeTakeFirst();
}

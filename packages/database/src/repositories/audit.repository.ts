import type { AuditRow, Db } from '../schema';

export function insertAuditRecord(
  db: Db,
  record: { research_id: string; actor_user_id: string | null; action: 'soft_deleted' | 'purged' },
) {
  return db.insertInto('deletion_audit').values(record).execute();
}

export function listAuditRecords(db: Db, researchId: string): Promise<AuditRow[]> {
  return db.selectFrom('deletion_audit').selectAll().where('research_id', '=', researchId).orderBy('id').execute();
}

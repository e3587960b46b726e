import type { RetentionRow } from '@research/database';
import type { HiddenRun } from '../routes/admin.schemas';

/** SPEC 4.12: a hidden run as administrators see it; the password hash only as a boolean. */
export function presentHiddenRun(record: RetentionRow): HiddenRun {
  return {
    research_id: record.research_id,
    query: record.query,
    hidden_at: (record.hidden_at ?? record.updated_at).toISOString(),
    is_deletion_protected: record.password_hash !== null,
  };
}

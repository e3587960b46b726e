import { batchedQuery, runBatchedLookup } from '../prepared';
import type { Db } from '../schema';
import type { ApiKeyWithUser } from './api-keys.repository';
import type { RunWithProtection } from './runs.repository';

/** The columns of a key (and its user) that authentication checks. */
export type ApiKeyCredentialRow = Pick<
  ApiKeyWithUser,
  'id' | 'user_id' | 'salt' | 'key_hash' | 'expires_at' | 'revoked_at' | 'username' | 'is_admin'
>;

/** The columns of a visible run that its public reads show (status, plan, the report's header). */
export type VisibleRunRead = Pick<
  RunWithProtection,
  | 'id'
  | 'query'
  | 'depth'
  | 'state'
  | 'created_at'
  | 'updated_at'
  | 'plan'
  | 'search_count'
  | 'source_count'
  | 'claim_count'
  | 'metadata'
  | 'is_deletion_protected'
  | 'usage'
  | 'budget'
  | 'parent_id'
  | 'review_plan'
  | 'collections'
>;

// Key columns carry an `auth_` prefix so they cannot collide with the run's columns.
interface KeyAndRunRow extends Omit<VisibleRunRead, 'id'> {
  id: string | null;
  auth_user_id: string;
  auth_salt: string;
  auth_key_hash: string;
  auth_expires_at: Date | null;
  auth_revoked_at: Date | null;
  auth_username: string;
  auth_is_admin: boolean;
}

// The run columns, spelled out (a prepared statement must not use `r.*`); the compiler checks the list.
const RUN_COLUMNS: Record<Exclude<keyof VisibleRunRead, 'is_deletion_protected'>, true> = {
  id: true,
  query: true,
  depth: true,
  state: true,
  created_at: true,
  updated_at: true,
  plan: true,
  search_count: true,
  source_count: true,
  claim_count: true,
  metadata: true,
  usage: true,
  budget: true,
  parent_id: true,
  review_plan: true,
  collections: true,
};

// The statement behind every keyed request: the key with its user and, for the reads of one run, the
// run. It answers a batch of lookups (see runBatchedLookup): `l` holds one (key id, run id) pair per
// lookup. Each join is on a primary key, so a lookup has at most one row; a known key always has its
// row (the run side is a LEFT JOIN whose columns are null when the run is unknown, hidden, or no run id
// was given). The protection flag is findVisibleRun's.
const keyAndVisibleRun = batchedQuery(
  'key_and_visible_run',
  `select l.i,
  k.user_id as auth_user_id, k.salt as auth_salt, k.key_hash as auth_key_hash,
  k.expires_at as auth_expires_at, k.revoked_at as auth_revoked_at,
  u.username as auth_username, u.is_admin as auth_is_admin,
  ${Object.keys(RUN_COLUMNS)
    .map((column) => `r.${column}`)
    .join(', ')},
  coalesce(rr.password_hash is not null, false) as is_deletion_protected
from unnest($1::text[], $2::uuid[]) with ordinality as l(key_id, run_id, i)
join api_keys k on k.id = l.key_id
join users u on u.id = k.user_id
left join research_runs r on r.id = l.run_id and not r.is_hidden
left join retention_records rr on rr.research_id = r.id`,
);

/**
 * The key `keyId` with its user, and the non-hidden run `runId` with its protection flag, in one
 * statement (one round trip for an authenticated read of a run, shared with the lookups of concurrent
 * requests). `runId` must be a UUID or null.
 */
export async function findApiKeyAndVisibleRun(
  db: Db,
  keyId: string,
  runId: string | null,
): Promise<{ key: ApiKeyCredentialRow | undefined; run: VisibleRunRead | undefined }> {
  const row = await runBatchedLookup<KeyAndRunRow>(db, keyAndVisibleRun, [keyId, runId]);
  if (!row) return { key: undefined, run: undefined };
  const key: ApiKeyCredentialRow = {
    id: keyId,
    user_id: row.auth_user_id,
    salt: row.auth_salt,
    key_hash: row.auth_key_hash,
    expires_at: row.auth_expires_at,
    revoked_at: row.auth_revoked_at,
    username: row.auth_username,
    is_admin: row.auth_is_admin,
  };
  if (row.id === null) return { key, run: undefined };
  const run: VisibleRunRead = {
    id: row.id,
    query: row.query,
    depth: row.depth,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    plan: row.plan,
    search_count: row.search_count,
    source_count: row.source_count,
    claim_count: row.claim_count,
    metadata: row.metadata,
    is_deletion_protected: row.is_deletion_protected,
    usage: row.usage,
    budget: row.budget,
    parent_id: row.parent_id,
    review_plan: row.review_plan,
    collections: row.collections,
  };
  return { key, run };
}

/** The key `keyId` with its user, as authentication checks it (the same statement, without a run). */
export async function findApiKeyCredentials(db: Db, keyId: string): Promise<ApiKeyCredentialRow | undefined> {
  return (await findApiKeyAndVisibleRun(db, keyId, null)).key;
}

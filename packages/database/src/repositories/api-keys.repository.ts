import { sql } from 'kysely';
import type { ApiKeyRow, Db } from '../schema';

export interface ApiKeyWithUser extends ApiKeyRow {
  username: string;
  is_admin: boolean;
}

export function insertApiKey(
  db: Db,
  key: { id: string; user_id: string; name: string | null; salt: string; key_hash: string; expires_at: Date | null },
) {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

export function listApiKeys(db: Db, username?: string): Promise<ApiKeyWithUser[]> {
  let query = db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('api_keys')
    .select(['users.username', 'users.is_admin']);
  if (username !== undefined) query = query.where('users.username', '=', username);
  return query.orderBy('api_keys.created_at').orderBy('api_keys.id').execute();
}

export function revokeApiKey(db: Db, id: string) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Records use at most once a minute per key, so authentication stays a read on the hot path. */
export function touchApiKey(db: Db, id: string) {
  return db
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]),
    )
    .executeTakeFirst();
}

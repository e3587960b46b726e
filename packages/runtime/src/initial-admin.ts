import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { createApiKey } from '@research/auth';
import { countUsers, setUserAdmin, type Database } from '@research/database';
import type { Logger } from '@research/observability';

export const INITIAL_ADMIN_USERNAME = 'admin';
export const INITIAL_ADMIN_KEY_FILE = 'initial-admin-key';

/**
 * On the first start (no users at all) creates an administrator and a key for it, and writes the key to
 * `<dataDir>/initial-admin-key` with mode 0600. Only the file's path is logged, never the key.
 * Returns the file path when a key was created.
 */
export async function ensureInitialAdmin(db: Database, dataDir: string, logger: Logger): Promise<string | undefined> {
  // Serialise concurrent first starts (several API replicas) on a transaction-scoped advisory lock.
  const created = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(715002001)`.execute(trx);
    if ((await countUsers(trx)) > 0) return undefined;
    const key = await createApiKey(trx, { username: INITIAL_ADMIN_USERNAME, name: 'initial administrator key' });
    await setUserAdmin(trx, INITIAL_ADMIN_USERNAME, true);
    return key;
  });
  if (!created) return undefined;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, INITIAL_ADMIN_KEY_FILE);
  fs.writeFileSync(file, `${created.key}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  logger.warn('created the initial administrator key; read it from the file and store it safely', {
    file,
    username: INITIAL_ADMIN_USERNAME,
    key_id: created.id,
  });
  return file;
}

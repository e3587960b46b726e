import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { MIGRATIONS } from './migrations';
import { attachPool } from './prepared';
import type { DB } from './schema';

// Counts come back as int8; every count we read fits a JS number, so parse them as numbers once here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  readonly db: Database;
  /** `postgres` for a server, `embedded` for PGlite under DATA_DIR. */
  readonly kind: 'postgres' | 'embedded';
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** Connections at most (default 10). */
  max?: number;
  applicationName?: string;
  /** How long a connection stays idle in the pool before it is closed (default 10 s). */
  idleTimeoutMs?: number;
  /**
   * Server side: Postgres ends a session that sent nothing for this long, outside a transaction, and drops
   * its advisory locks with it (idle_session_timeout, Postgres 14 or later). Unset: never.
   */
  idleSessionTimeoutMs?: number;
}

// TCP keepalive probes start after a connection is this long silent. pg passes 0 (the OS default, two
// hours on Linux) unless told; with 10 s a server host that went down or a network cut without a reset is
// found by the kernel's probes (about 11 minutes with Linux's 9 probes 75 s apart) rather than hours later.
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/** Opens a pooled connection to a Postgres server. */
export function connectPostgres(url: string, options: PostgresOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'research-service',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    ...(options.idleSessionTimeoutMs !== undefined
      ? { options: `-c idle_session_timeout=${Math.round(options.idleSessionTimeoutMs)}` }
      : {}),
  });
  // A client that loses its server must not crash the process. pg-pool listens on idle clients only; a
  // checked-out one (a transaction, a held run lock) would emit an unhandled 'error'. The query in flight
  // still rejects, the broken client leaves the pool on release, and the next query connects anew.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // Prepared hot statements use the pool directly (runPreparedQuery).
  attachPool(db, pool);
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Opens the embedded database (PGlite) stored in `<dataDir>/pgdata`. */
export async function openEmbedded(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.join(dataDir, 'pgdata');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pglite = await PGlite.create(dir);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'embedded', close: () => db.destroy() };
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return result;
}

/** True when the database answers a trivial query. */
export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

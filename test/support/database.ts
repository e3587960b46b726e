import crypto from 'node:crypto';
import pg from 'pg';
import { connectPostgres, migrateToLatest, type Database } from '@research/database';
import { TEST_DATABASE_URL } from './env';

export interface TestDatabase {
  readonly url: string;
  readonly db: Database;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database of its own for one test file (files run in parallel). */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `rs_${label
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 20)}_${crypto.randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = withDatabase(TEST_DATABASE_URL, name);
  const handle = connectPostgres(url, { max: 10, applicationName: 'research-tests' });
  await migrateToLatest(handle.db);
  return {
    url,
    db: handle.db,
    async drop() {
      await handle.close();
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

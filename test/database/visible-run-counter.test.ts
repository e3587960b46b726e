import crypto from 'node:crypto';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import {
  MIGRATIONS,
  connectPostgres,
  countVisibleRuns,
  migrateToLatest,
  type DatabaseHandle,
} from '@research/database';
import { TEST_DATABASE_URL } from '../support/env';

async function onServer(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('visible run counter migration', () => {
  const name = `rs_counter_${crypto.randomBytes(5).toString('hex')}`;
  let legacy: DatabaseHandle;
  beforeAll(async () => {
    // A database as an older version left it: only the initial migration applied.
    await onServer(`create database ${name}`);
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    legacy = connectPostgres(url.toString(), { max: 2 });
  });
  afterAll(async () => {
    await legacy.close();
    await onServer(`drop database if exists ${name} with (force)`);
  });

  it('starts from the runs already stored when it is applied to an existing database', async () => {
    const initialOnly = new Migrator({
      db: legacy.db,
      provider: { getMigrations: async () => ({ '2026-11-21T0000-initial': MIGRATIONS['2026-11-21T0000-initial']! }) },
    });
    expect((await initialOnly.migrateToLatest()).error).toBeUndefined();
    await sql`
      insert into research_runs (id, query, language, depth, budget, state, is_hidden)
      select gen_random_uuid(), 'old ' || g, 'de', 'quick', '{}'::jsonb, 'completed', g % 3 = 0
      from generate_series(1, 300) g`.execute(legacy.db);

    const result = await migrateToLatest(legacy.db);
    expect(result.results?.map((r) => r.migrationName)).toContain('2026-11-22T0100-visible-run-counter');
    expect(await countVisibleRuns(legacy.db)).toBe(200);

    await sql`update research_runs set is_hidden = true where query = 'old 1'`.execute(legacy.db);
    expect(await countVisibleRuns(legacy.db)).toBe(199);
  });
});

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { migrateToLatest, MIGRATIONS } from '@research/database';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import { corpusPages, loopbackServices } from '../engine/engine-support';
import { startFakeWeb, type FakeWeb } from '../fakes/fake-web';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { insertTestRun, testConfig } from '../worker/worker-fixtures';

const CLI = path.resolve(__dirname, '../../apps/api/dist/cli.js');

function verify(args: string[], databaseUrl: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'verify', ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'error', DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

describe('research-admin verify <research_id>', () => {
  let t: TestDatabase;
  let web: FakeWeb;
  let live: LiveWeb;
  let runId: string;

  beforeAll(async () => {
    t = await createTestDatabase('verify');
    web = await startFakeWeb({ pages: corpusPages(PHOTOSYNTHESIS_CORPUS) });
    live = createLiveWeb(testConfig({ CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_TIMEOUT_MS: '5000' }));
    const runner = createResearchRunner({
      db: t.db,
      services: loopbackServices(web.searchUrl, live.services),
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      pollIntervalMs: 200,
    });
    const run = await insertTestRun(t.db, { query: 'How does photosynthesis convert light energy in plants?' });
    await runner(
      { research_id: run.id },
      { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal },
    );
    runId = run.id;
  }, 60_000);
  afterAll(async () => {
    await live?.close();
    await web?.close();
    await t?.drop();
  });

  it('exits 0 when every span and every hash of a real run holds', async () => {
    const claims = await t.db.selectFrom('claims').select('id').where('run_id', '=', runId).execute();
    expect(claims.length).toBeGreaterThan(0);
    const r = verify([runId], t.url);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('all hold');
    const json = JSON.parse(verify([runId, '--json'], t.url).stdout);
    expect(json).toMatchObject({ research_id: runId, claims: claims.length, failures: [] });
  });

  it('exits 1 naming the source whose text no longer matches its hash, and the claims it breaks', async () => {
    const claim = await t.db
      .selectFrom('claims')
      .select(['id', 'source_id', 'evidence_span'])
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    const { content } = await t.db
      .selectFrom('sources')
      .select('content')
      .where('id', '=', claim.source_id)
      .executeTakeFirstOrThrow();
    // One letter of the quoted passage changed, as an edit of the stored text would.
    const tampered = content.replace(claim.evidence_span, `X${claim.evidence_span.slice(1)}`);
    await t.db.updateTable('sources').set({ content: tampered }).where('id', '=', claim.source_id).execute();
    try {
      const r = verify([runId], t.url);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`source ${claim.source_id}: the text's SHA-256 is`);
      expect(r.stdout).toContain(`claim ${claim.id} (source ${claim.source_id}): the source text at`);
    } finally {
      await t.db.updateTable('sources').set({ content }).where('id', '=', claim.source_id).execute();
    }
    expect(verify([runId], t.url).code).toBe(0);
  });

  it('exits 1 naming the claim whose span no longer points at its evidence', async () => {
    const claim = await t.db
      .selectFrom('claims')
      .select(['id', 'source_id', 'span_start', 'span_end'])
      .where('run_id', '=', runId)
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('claims')
      .set({ span_start: claim.span_start! + 1 })
      .where('id', '=', claim.id)
      .execute();
    try {
      const r = verify([runId, '--json'], t.url);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).failures).toEqual([
        { claim_id: claim.id, source_id: claim.source_id, reason: expect.stringContaining('is not the evidence span') },
      ]);
    } finally {
      await t.db.updateTable('claims').set({ span_start: claim.span_start }).where('id', '=', claim.id).execute();
    }
  });

  it('exits 2 on a usage error and 1 for an unknown run', () => {
    expect(verify([], t.url).code).toBe(2);
    const malformed = verify(['not-a-run'], t.url);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("Invalid research id 'not-a-run'");
    const unknown = verify([crypto.randomUUID()], t.url);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No research run');
  });
});

describe('the provenance migration on runs stored before it', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('provenance-migration');
  });
  afterAll(() => t.drop());

  it('hashes every stored source and places every claim whose span its source holds verbatim', async () => {
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => MIGRATIONS } });
    const names = Object.keys(MIGRATIONS).sort();
    const before = names[names.indexOf('2026-11-28T0300-provenance') - 1]!;
    expect((await migrator.migrateTo(before)).error).toBeUndefined();

    const runId = crypto.randomUUID();
    const content = 'Leaves 🌿 hold chlorophyll.\n\nIt absorbs light energy\nfor photosynthesis.';
    await sql`insert into research_runs (id, query, language, depth, budget, state)
      values (${runId}, 'q', 'en', 'quick', '{}'::jsonb, 'completed')`.execute(t.db);
    await sql`insert into sources (id, run_id, round, position, url, domain, retrieved_at, content)
      values ('old-source', ${runId}, 1, 0, 'https://example.org/leaves', 'example.org', now(), ${content})`.execute(
      t.db,
    );
    await sql`insert into claims (id, run_id, source_id, round, position, claim_text, evidence_span, claim_type, confidence)
      values ('verbatim', ${runId}, 'old-source', 1, 0, 'c', 'hold chlorophyll.', 'fact', 1),
             ('collapsed', ${runId}, 'old-source', 1, 1, 'c', 'It absorbs light energy for photosynthesis.', 'fact', 1)`.execute(
      t.db,
    );
    await migrateToLatest(t.db);

    const source = await t.db
      .selectFrom('sources')
      .selectAll()
      .where('id', '=', 'old-source')
      .executeTakeFirstOrThrow();
    expect(source.content_sha256).toBe(crypto.createHash('sha256').update(content, 'utf8').digest('hex'));
    const claims = await t.db
      .selectFrom('claims')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('position')
      .execute();
    expect(claims.map((c) => [c.id, c.span_start, c.span_end])).toEqual([
      ['verbatim', 9, 26], // code points: the leaf is one (in UTF-16 the span would start at 10)
      ['collapsed', null, null],
    ]);
    expect(Array.from(content).slice(9, 26).join('')).toBe('hold chlorophyll.');

    const r = verify([runId], t.url);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('claim collapsed (source old-source): no span stored');
    expect(r.stdout).not.toContain('verbatim');
  });
});

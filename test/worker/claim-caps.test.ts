import { MAX_CLAIMS_PER_RUN, MAX_CLAIMS_PER_SOURCE, type ClaimDraft, type SourceDraft } from '@research/core';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner, type PipelineSteps, type ResearchServices } from '@research/pipeline';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { insertTestRun, runRow } from './worker-fixtures';

/** Sentences of page `page`: each states a quantity, so each can be quoted as a claim. */
function sentencesOf(page: number): string[] {
  return Array.from(
    { length: 60 },
    (_, i) => `Plants on field ${page} converted ${page * 100 + i + 1} joules of light per square metre in 2020.`,
  );
}

/**
 * The web as the steps see it, answering at once: every query finds 10 new pages, and every page asked
 * for is read (within the run's max_sources, as the crawler keeps it).
 */
function scriptedWeb(): ResearchServices {
  let pages = 0;
  return {
    llm: null,
    localCorpusDir: undefined,
    searchProvider: {
      name: 'scripted',
      search: async () =>
        Array.from({ length: 10 }, (_, rank) => {
          const page = pages++;
          const url = `https://field${page}.example/report`;
          return { url, title: `Field ${page}`, snippet: '', published_at: null, provider: 'scripted', rank: rank + 1 };
        }),
    },
    crawler: {
      async fetchSources(urls, budget) {
        const room = Math.max(0, budget.max_sources - (budget.used?.sources ?? 0));
        const sources = urls.slice(0, room).map((url): SourceDraft => {
          const page = Number(/field(\d+)/.exec(url)![1]);
          return {
            id: `src-${page}`,
            url,
            title: `Field ${page}`,
            domain: `field${page}.example`,
            source_type: 'academic',
            retrieved_at: new Date().toISOString(),
            content: sentencesOf(page).join(' '),
            published_at: null,
            language: 'en',
          };
        });
        return {
          sources,
          // As the crawler says of the pages it had no room for.
          rejected: urls.slice(room).map((url) => ({ url, reason: 'budget_sources' as const })),
          duplicates: 0,
          usage: { sources: sources.length, bytes: 0, pages_per_domain: {} },
        };
      },
      extractPage: async () => {
        throw new Error('this run reads no local files');
      },
    },
  };
}

describe('claim caps in the pipeline', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('claimcaps');
  });
  afterAll(() => t?.drop());

  it(`stores at most ${MAX_CLAIMS_PER_SOURCE} claims per source and ${MAX_CLAIMS_PER_RUN} per run, whatever the engine finds`, async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    // An analyzer quoting every sentence of every new source: 60 grounded claims per source.
    const greedy: Partial<PipelineSteps> = {
      analyze: async (snapshot, ctx) =>
        snapshot.sources
          .filter((s) => s.round === ctx.round)
          .flatMap((s) =>
            sentencesOf(Number(/field(\d+)/.exec(s.url)![1])).map((sentence, i): ClaimDraft => ({
              id: `${s.id}-claim-${i}`,
              source_id: s.id,
              claim_text: sentence,
              evidence_span: sentence,
              claim_type: 'fact',
              confidence: 0.7,
            })),
          ),
    };
    const runner = createResearchRunner({
      db: t.db,
      services: scriptedWeb(),
      steps: greedy,
      metrics,
      logger: createSilentLogger(),
      pollIntervalMs: 200,
    });
    // Two rounds adding 45 sources: 45 × 48 claims would be 2,160.
    const run = await insertTestRun(t.db, {
      depth: 'normal',
      budget: { max_sources: 45 },
      query: 'How much light do plants convert per field?',
    });
    await runner(
      { research_id: run.id },
      { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal },
    );

    const done = await runRow(t.db, run.id);
    expect(done.metadata).toEqual(expect.not.objectContaining({ error: expect.anything() }));
    expect(done.state).toBe('completed');
    const sources = await t.db
      .selectFrom('sources')
      .select(['id'])
      .where('run_id', '=', run.id)
      .orderBy('position')
      .execute();
    // The engine found 60 claims in each source: more than both caps allow.
    expect(sources.length * MAX_CLAIMS_PER_SOURCE).toBeGreaterThan(MAX_CLAIMS_PER_RUN);
    const claims = await t.db
      .selectFrom('claims')
      .select(['source_id', 'position'])
      .where('run_id', '=', run.id)
      .orderBy('position')
      .execute();
    expect(claims).toHaveLength(MAX_CLAIMS_PER_RUN);
    const perSource = new Map<string, number>();
    for (const c of claims) perSource.set(c.source_id, (perSource.get(c.source_id) ?? 0) + 1);
    // Sources fill up to the cap in order until the run is full; the ones after get nothing.
    const full = Math.floor(MAX_CLAIMS_PER_RUN / MAX_CLAIMS_PER_SOURCE);
    expect(sources.map((s) => perSource.get(s.id) ?? 0)).toEqual(
      sources.map((_, i) =>
        i < full ? MAX_CLAIMS_PER_SOURCE : i === full ? MAX_CLAIMS_PER_RUN - full * MAX_CLAIMS_PER_SOURCE : 0,
      ),
    );
    expect(claims.map((c) => c.position)).toEqual(claims.map((_, i) => i));
    const evidence = await t.db.selectFrom('evidence_scores').select('claim_id').where('run_id', '=', run.id).execute();
    expect(evidence).toHaveLength(MAX_CLAIMS_PER_RUN);
    const report = await t.db.selectFrom('reports').select('report').where('run_id', '=', run.id).executeTakeFirst();
    expect(report).toBeDefined();
  }, 180_000);
});

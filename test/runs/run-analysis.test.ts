import { sql } from 'kysely';
import { findRunById, listClaims, listSources } from '@research/database';
import { graphInputsKey } from '@research/engine';
import { createSilentLogger } from '@research/observability';
import {
  clusterRunClaims,
  extractRunClaims,
  rescoreRunEvidence,
  type RequestScope,
  type RunRequest,
} from '@research/runs';
import { buildTestApp, insertRunResults, insertTestRun, type TestApp } from '../http/support';

// The analysis use cases of an ended run, called without HTTP over a real database: rescoring stores the
// compare step's graph, clustering reads it while it describes the run's claims, and builds it anew once a
// claim was added.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp('run-analysis-use-cases');
});
afterAll(async () => {
  await t.close();
});

function requestOn(id: string): RunRequest {
  const scope: RequestScope = {
    actor: { userId: t.owner.id, username: t.owner.username, isAdmin: false, keyId: t.owner.keyId },
    requestId: 'req-analysis',
    logger: createSilentLogger(),
  };
  return { ctx: t.ctx, scope, id, signal: new AbortController().signal };
}

async function storedGraph(runId: string): Promise<{ inputs: string; graph: { clusters: unknown[] } } | undefined> {
  const { rows } = await sql<{
    inputs: string;
    graph: { clusters: unknown[] };
  }>`select inputs, graph from evidence_graphs where run_id = ${runId}`.execute(t.db);
  return rows[0];
}

describe('the stored evidence graph, through the analysis use cases', () => {
  it('is stored by rescoring, read by clustering, and built anew once the run has another claim', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
    await insertRunResults(t.db, id, { sources: 3 });
    expect(await storedGraph(id)).toBeUndefined();

    const evidence = await rescoreRunEvidence(requestOn(id));
    const [claims, sources] = await Promise.all([listClaims(t.db, id), listSources(t.db, id)]);
    expect(evidence).toHaveLength(claims.length);
    const stored = await storedGraph(id);
    expect(stored?.inputs).toBe(graphInputsKey(claims, sources));
    expect(stored?.graph.clusters.length).toBeGreaterThan(0);

    // A mark only the stored graph carries shows which graph clustering read.
    await sql`update evidence_graphs set graph = jsonb_set(graph, '{clusters,0,groups}', '99') where run_id = ${id}`.execute(
      t.db,
    );
    const first = await clusterRunClaims(t.ctx, requestOn(id).scope, id);
    expect(first.clusters[0]?.independent_groups).toBe(99);

    const added = await extractRunClaims({
      ...requestOn(id),
      input: {
        text: 'The harbour of Rotterdam handled 440 million tonnes of cargo in 2023, its port authority said.',
        url: 'https://port.example/annual-report',
        title: 'Annual report',
        language: 'en',
      },
    });
    expect(added.claims.length).toBeGreaterThan(0);
    const second = await clusterRunClaims(t.ctx, requestOn(id).scope, id);
    expect(second.clusters.map((c) => c.independent_groups)).not.toContain(99);
    expect(second.clusters.flatMap((c) => c.claim_ids)).toEqual(expect.arrayContaining(added.claims.map((c) => c.id)));
    expect((await findRunById(t.db, id))?.state).toBe('completed');
  });
});

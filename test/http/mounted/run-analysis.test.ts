import request from 'supertest';
import { NOT_A_UUID, UNKNOWN_ID, insertRunResults, insertTestRun } from '../support';
import { buildMountedApp, type MountedTestApp } from './support';

const PLAN = {
  query: 'Wie stark stieg die Produktivität im Homeoffice?',
  language: 'de',
  query_categories: ['quantitative'],
  sub_questions: ['Wie stark stieg die Produktivität im Homeoffice?'],
  search_queries: [{ query: 'Produktivität Homeoffice', dimension: 'evidence' }],
  counter_evidence_queries: [],
  required_fields: ['Produktivität'],
  search_dimensions: ['evidence'],
  time_sensitivity: 'none',
  confidence: 0.6,
};
const TEXT_A =
  'Eine Studie aus dem Jahr 2021 ergab, dass die Produktivität im Homeoffice um 13 Prozent stieg. Das Wetter war schön.';
const TEXT_B = 'Laut einer Umfrage von 2022 stieg die Produktivität im Homeoffice um 13 Prozent.';
const TEXT_C = 'Eine andere Studie von 2021 ergab, dass die Produktivität im Homeoffice um 4 Prozent sank.';

describe('run analysis routes (/research/{run_id}/…)', () => {
  let m: MountedTestApp;
  let runId: string;
  let runningId: string;
  let hiddenId: string;
  beforeAll(async () => {
    m = await buildMountedApp('runanalysis');
    runId = await insertTestRun(m.t.db, {
      owner: m.t.owner.id,
      state: 'completed',
      plan: PLAN,
      query: PLAN.query,
    });
    runningId = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'analyzing', plan: PLAN, query: PLAN.query });
    hiddenId = await insertTestRun(m.t.db, { owner: m.t.owner.id, hidden: true, state: 'cancelled' });
  });
  afterAll(() => m.close());

  const as = (key: string | undefined) => ({
    get: (path: string) => {
      const r = request(m.app).get(path);
      return key ? r.set('X-API-Key', key) : r;
    },
    post: (path: string, body?: object) => {
      const r = request(m.app).post(path);
      const withKey = key ? r.set('X-API-Key', key) : r;
      return body === undefined ? withKey : withKey.send(body);
    },
  });

  describe('POST /research/:run_id/claims', () => {
    it('extracts claims from given text, stores them with a new source, and /v1 shows them', async () => {
      const res = await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { text: TEXT_A, url: 'https://news.example.org/studie', title: 'Studie' })
        .expect(200);
      expect(res.body.research_id).toBe(runId);
      expect(res.body.engine).toBe('extractive');
      expect(res.body.created).toBeGreaterThan(0);
      expect(res.body.claims[0]).toMatchObject({
        research_run_id: runId,
        source_id: res.body.source_id,
        claim_type: 'fact',
      });
      expect(TEXT_A).toContain(res.body.claims[0].evidence_span);
      expect(res.body.claims.some((c: { claim_text: string }) => c.claim_text.includes('Wetter'))).toBe(false);

      const v1 = await as(m.t.other.key).get(`/v1/research/${runId}/claims`).expect(200);
      expect(v1.body.claims.map((c: { id: string }) => c.id)).toEqual(
        expect.arrayContaining(res.body.claims.map((c: { id: string }) => c.id)),
      );
      const sources = await as(m.t.other.key).get(`/v1/research/${runId}/sources`).expect(200);
      expect(sources.body.sources).toContainEqual(
        expect.objectContaining({ id: res.body.source_id, url: 'https://news.example.org/studie', title: 'Studie' }),
      );
      const status = await as(m.t.owner.key).get(`/v1/research/${runId}`).expect(200);
      expect(status.body.claim_count).toBe(v1.body.total);
      expect(status.body.source_count).toBe(sources.body.total);
    });

    it('re-extracting a stored source adds nothing the second time', async () => {
      const first = await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { text: TEXT_B, url: 'https://survey.example.com/umfrage' })
        .expect(200);
      const again = await as(m.t.admin.key)
        .post(`/research/${runId}/claims`, { source_id: first.body.source_id })
        .expect(200);
      expect(again.body.created).toBe(0);
      expect(again.body.claims.map((c: { id: string }) => c.id)).toEqual(
        first.body.claims.map((c: { id: string }) => c.id),
      );
    });

    it.each([
      ['an empty body', {}, 'source_id: give source_id, text with url, or url'],
      ['text without url', { text: 'Etwas Text' }, 'url: Required with text'],
      ['an ftp url', { text: 'Etwas Text', url: 'ftp://example.org/x' }, 'url: must be an http or https URL'],
      ['a number as text', { text: 42, url: 'https://example.org' }, 'text: must be a string'],
      ['a source of no run', { source_id: 'nope' }, 'source_id: the run has no source nope'],
      [
        'both source and text',
        { source_id: 'a', text: 'b', url: 'https://example.org' },
        'text: give either source_id or text, not both',
      ],
      [
        'oversized text',
        { text: 'x'.repeat(200_001), url: 'https://example.org' },
        'text: must be 1 to 200000 characters',
      ],
    ])('refuses %s with 422', async (_label, body, detail) => {
      await as(m.t.owner.key).post(`/research/${runId}/claims`, body).expect(422, { detail });
    });

    it('refuses a body that is not JSON with 400 and one over 1 MiB with 413', async () => {
      await request(m.app)
        .post(`/research/${runId}/claims`)
        .set('X-API-Key', m.t.owner.key)
        .set('content-type', 'application/json')
        .send('{"text":')
        .expect(400, { detail: 'Malformed JSON body.' });
      await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { text: 'x'.repeat(1_100_000), url: 'https://example.org' })
        .expect(413);
    });
  });

  describe('clustering, evidence and synthesis', () => {
    beforeAll(async () => {
      await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { text: TEXT_C, url: 'https://other.example.net/studie' })
        .expect(200);
    });

    it('clusters the claims, stores clusters and relations, and reads them back', async () => {
      const before = await as(m.t.other.key).get(`/research/${runId}/clusters`).expect(200);
      expect(before.body).toMatchObject({ research_id: runId, total: 0, computed_at: null });
      const res = await as(m.t.owner.key).post(`/research/${runId}/cluster-claims`).expect(200);
      expect(res.body.total).toBeGreaterThan(0);
      expect(res.body.computed_at).toEqual(expect.any(String));
      const claims = (await as(m.t.owner.key).get(`/research/${runId}/claims`).expect(200)).body.claims as Array<{
        id: string;
      }>;
      const clustered = res.body.clusters.flatMap((c: { claim_ids: string[] }) => c.claim_ids);
      expect([...clustered].sort()).toEqual(claims.map((c) => c.id).sort());

      const read = await as(m.t.other.key).get(`/research/${runId}/clusters`).expect(200);
      expect(read.body.clusters).toEqual(res.body.clusters);
      const relations = await as(m.t.other.key).get(`/research/${runId}/claim-relations`).expect(200);
      expect(relations.body.total).toBe(res.body.relations);
      // 13 % more against 4 % less of the same quantity: the engine's contradiction detector flags it.
      const kinds = relations.body.relations.map((r: { relation: string }) => r.relation);
      expect(kinds).toContain('contradicts');
      const ids = new Set(claims.map((c) => c.id));
      for (const r of relations.body.relations) {
        expect(ids.has(r.claim_id) && ids.has(r.related_claim_id)).toBe(true);
      }
    });

    it('recomputes evidence scores and /v1/…/evidence shows them', async () => {
      const res = await as(m.t.owner.key).post(`/research/${runId}/evidence`).expect(200);
      const claims = await as(m.t.owner.key).get(`/v1/research/${runId}/claims`).expect(200);
      expect(res.body.total).toBe(claims.body.total);
      for (const e of res.body.evidence) {
        for (const k of ['source_independence_score', 'cross_source_support', 'contradiction_level']) {
          expect(e[k]).toBeGreaterThanOrEqual(0);
          expect(e[k]).toBeLessThanOrEqual(1);
        }
      }
      const v1 = await as(m.t.other.key).get(`/v1/research/${runId}/evidence`).expect(200);
      expect(v1.body).toEqual(res.body);
      expect((await as(m.t.other.key).get(`/research/${runId}/evidence`).expect(200)).body).toEqual(res.body);
      // The same evidence gives the same scores.
      expect((await as(m.t.admin.key).post(`/research/${runId}/evidence`).expect(200)).body).toEqual(res.body);
    });

    it('writes the report from the current evidence and /v1/…/report shows it', async () => {
      const res = await as(m.t.owner.key).post(`/research/${runId}/synthesis`).expect(200);
      expect(res.body).toMatchObject({ research_id: runId, query: PLAN.query, engine: 'extractive', fallbacks: [] });
      delete res.body.engine;
      delete res.body.fallbacks;
      expect(res.body.findings.length).toBeGreaterThan(0);
      expect(res.body.summary).toMatch(/\[F1\]/);
      expect(res.body.disagreements.length).toBeGreaterThan(0);
      const v1 = await as(m.t.other.key).get(`/v1/research/${runId}/report`).expect(200);
      expect(v1.body).toEqual(res.body);
      expect((await as(m.t.other.key).get(`/research/${runId}/synthesis`).expect(200)).body).toEqual(res.body);
    });

    it('new claims clear the stored clusters (they no longer describe the claims)', async () => {
      await as(m.t.owner.key).post(`/research/${runId}/cluster-claims`).expect(200);
      await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, {
          text: 'Im Jahr 2023 stieg die Produktivität im Homeoffice laut Bericht um 9 Prozent.',
          url: 'https://third.example.com/bericht',
        })
        .expect(200);
      expect((await as(m.t.owner.key).get(`/research/${runId}/clusters`).expect(200)).body.total).toBe(0);
    });
  });

  describe('authorization', () => {
    const writes = [
      ['post', '/claims', { text: TEXT_A, url: 'https://example.org/a' }],
      ['post', '/cluster-claims', undefined],
      ['post', '/evidence', undefined],
      ['post', '/synthesis', undefined],
    ] as const;
    const reads = ['/claims', '/clusters', '/claim-relations', '/evidence', '/synthesis'];

    it.each([...reads.map((p) => ['get', p, undefined] as const), ...writes])(
      '%s %s answers 401 without a key or with a bad one',
      async (method, path, body) => {
        await as(undefined)[method](`/research/${runId}${path}`, body).expect(401);
        await as('garbage')[method](`/research/${runId}${path}`, body).expect(401, { detail: 'Invalid API key.' });
      },
    );

    it.each(reads)(
      'GET %s is open to any authenticated caller and 404 for unknown, malformed or hidden runs',
      async (path) => {
        await as(m.t.other.key).get(`/research/${runId}${path}`).expect(200);
        for (const id of [UNKNOWN_ID, NOT_A_UUID, hiddenId]) {
          await as(m.t.admin.key)
            .get(`/research/${id}${path}`)
            .expect(404, { detail: `Research run ${id} not found` });
        }
      },
    );

    it.each(writes)(
      '%s %s: another user 403, hidden/unknown 404, running 409; nothing changes',
      async (method, path, body) => {
        const claimsBefore = (await as(m.t.owner.key).get(`/v1/research/${runId}/claims`)).body.total;
        const other = as(m.t.other.key);
        const owner = as(m.t.owner.key);
        await other[method](`/research/${runId}${path}`, body).expect(403, {
          detail: 'You may only manage your own research runs.',
        });
        for (const id of [UNKNOWN_ID, NOT_A_UUID, hiddenId]) {
          await owner[method](`/research/${id}${path}`, body).expect(404, { detail: `Research run ${id} not found` });
        }
        const running = await as(m.t.owner.key)[method](`/research/${runningId}${path}`, body).expect(409);
        expect(running.body.detail).toContain('still running');
        expect((await as(m.t.owner.key).get(`/v1/research/${runId}/claims`)).body.total).toBe(claimsBefore);
      },
    );

    it('lets an administrator write to any finished run', async () => {
      const other = await insertTestRun(m.t.db, {
        owner: m.t.other.id,
        state: 'failed',
        plan: PLAN,
        query: PLAN.query,
      });
      await insertRunResults(m.t.db, other, { sources: 2 });
      await as(m.t.admin.key).post(`/research/${other}/evidence`).expect(200);
      await as(m.t.admin.key).post(`/research/${other}/synthesis`).expect(200);
    });
  });
});

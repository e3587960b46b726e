import request from 'supertest';
import { Details } from '@research/core';
import { NOT_A_UUID, UNKNOWN_ID, buildTestApp, insertRunResults, insertTestRun, type TestApp } from './support';

const PLAN = {
  query: 'Homeoffice',
  language: 'de',
  query_categories: ['empirical'],
  sub_questions: ['Wie misst man Produktivität?'],
  search_queries: [{ query: 'Homeoffice Produktivität Studie', dimension: 'evidence' }],
  counter_evidence_queries: ['Homeoffice Produktivität sinkt'],
  required_fields: ['effect size'],
  search_dimensions: ['evidence'],
  time_sensitivity: 'low',
  confidence: 0.7,
};

describe('reading research runs', () => {
  let t: TestApp;
  let completed: string;
  let failed: string;
  let legacy: string;
  let hidden: string;
  let sourceIds: string[];
  let claimIds: string[];

  beforeAll(async () => {
    t = await buildTestApp('read');
    completed = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed', query: 'Homeoffice', plan: PLAN });
    ({ sourceIds, claimIds } = await insertRunResults(t.db, completed, {
      sources: 2,
      report: {
        summary: 'Kurzfassung',
        findings: ['Ein nackter Befund', { text: 'Strukturiert', confidence: 0.8, source_ids: ['s1'] }],
        disagreements: [{ claim: 'Effekt', positions: [{ source: 's1', view: 'positiv' }] }],
        uncertainties: ['wenige Studien'],
        source_statistics: { total_sources: 2, primary_sources: 0, secondary_sources: 2 },
        methodology: 'Pipeline',
        generated_at: '2026-11-21T10:00:00.000Z',
      },
    }));
    failed = await insertTestRun(t.db, {
      owner: t.owner.id,
      state: 'failed',
      metadata: { error: 'Search provider unreachable', failed_step: 'search' },
    });
    legacy = await insertTestRun(t.db, { owner: null, retention: false, state: 'planning' });
    hidden = await insertTestRun(t.db, { owner: t.owner.id, state: 'cancelled', hidden: true });
  });
  afterAll(() => t.close());

  const get = (path: string, key = t.other.key) => request(t.app).get(path).set('X-API-Key', key);

  describe('GET /v1/research/:id and /status', () => {
    it('returns the SPEC 4.4 fields, identical on both paths, to any authenticated user', async () => {
      const a = await get(`/v1/research/${completed}`).expect(200);
      const b = await get(`/v1/research/${completed}/status`).expect(200);
      expect(a.body).toEqual(b.body);
      expect(a.body).toEqual({
        research_id: completed,
        query: 'Homeoffice',
        depth: 'normal',
        state: 'completed',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: null,
        search_count: 2,
        source_count: 2,
        claim_count: 4,
        error: null,
        is_completed: true,
        is_running: false,
        is_deletion_protected: false,
        cost: {
          llm_requests: 0,
          llm_tokens_input: 0,
          llm_tokens_output: 0,
          search_queries: 0,
          pages_fetched: 2,
          estimated_cost_usd: null,
          max_llm_tokens: null,
        },
        // Extension: the run a follow-up started from.
        parent_id: null,
        // Extensions: how it was asked for (plan review, collections); false and null for a run without them.
        review_plan: false,
        collections: null,
      });
    });

    it('shows the metadata error of a failed run', async () => {
      const res = await get(`/v1/research/${failed}/status`).expect(200);
      expect(res.body).toMatchObject({
        state: 'failed',
        error: 'Search provider unreachable',
        is_completed: false,
        is_running: false,
      });
    });

    it('reports a run in an intermediate state as running, and a legacy run as not protected', async () => {
      const res = await get(`/v1/research/${legacy}`).expect(200);
      expect(res.body).toMatchObject({
        state: 'planning',
        is_running: true,
        is_completed: false,
        is_deletion_protected: false,
        search_count: 0,
      });
    });

    it('shows is_deletion_protected for a protected run', async () => {
      const id = await insertTestRun(t.db, {
        owner: t.owner.id,
        passwordHash: await t.passwords.hash('irrelevant-password'),
      });
      expect((await get(`/v1/research/${id}`).expect(200)).body.is_deletion_protected).toBe(true);
    });
  });

  describe('GET /v1/research/:id/sources', () => {
    it('lists the sources with the SPEC 2.2 fields (and the hash of their text) but never their extracted content', async () => {
      const res = await get(`/v1/research/${completed}/sources`).expect(200);
      expect(res.body).toEqual({
        research_id: completed,
        total: 2,
        sources: [
          {
            id: sourceIds[0],
            url: 'https://example.org/0',
            title: null,
            domain: 'example.org',
            source_type: null,
            retrieved_at: '2026-11-21T09:00:00.000Z',
            // Rows written around the app (this factory) have no hash; the service's writers always set one.
            content_sha256: null,
          },
          {
            id: sourceIds[1],
            url: 'https://example.org/1',
            title: 'Source 1',
            domain: 'example.org',
            source_type: 'reference',
            retrieved_at: '2026-11-21T09:00:01.000Z',
            content_sha256: null,
          },
        ],
      });
      expect(res.text).not.toContain('SECRET-CONTENT');
    });

    it('is an empty list for a run without sources', async () => {
      expect((await get(`/v1/research/${failed}/sources`).expect(200)).body).toEqual({
        research_id: failed,
        sources: [],
        total: 0,
      });
    });
  });

  describe('GET /v1/research/:id/claims', () => {
    it('lists the claims with the SPEC 2.3 fields (and where their span stands, when known)', async () => {
      const res = await get(`/v1/research/${completed}/claims`).expect(200);
      expect(res.body.total).toBe(4);
      expect(res.body.research_id).toBe(completed);
      expect(res.body.claims.map((c: { id: string }) => c.id)).toEqual(claimIds);
      expect(res.body.claims[0]).toEqual({
        id: claimIds[0],
        research_run_id: completed,
        source_id: sourceIds[0],
        claim_text: 'Claim 0.0',
        evidence_span: 'span 0.0',
        claim_type: 'fact',
        confidence: 0.75,
        span_start: null,
        span_end: null,
      });
    });
  });

  describe('GET /v1/research/:id/evidence', () => {
    it('lists one evidence score per claim with the SPEC 2.4 fields', async () => {
      const res = await get(`/v1/research/${completed}/evidence`).expect(200);
      expect(res.body.total).toBe(4);
      expect(res.body.evidence.map((e: { claim_id: string }) => e.claim_id)).toEqual(claimIds);
      expect(res.body.evidence[0]).toEqual({
        claim_id: claimIds[0],
        research_run_id: completed,
        evidence_type: 'secondary_report',
        source_independence_score: 0.5,
        primary_source_proximity: 0.25,
        cross_source_support: 0.1,
        contradiction_level: 0,
        evidence_directness: 0.5,
        date_relevance_score: 0.5,
      });
    });
  });

  describe('GET /v1/research/:id/plan', () => {
    it('returns the stored plan with available true', async () => {
      expect((await get(`/v1/research/${completed}/plan`).expect(200)).body).toEqual({
        research_id: completed,
        plan: PLAN,
        available: true,
      });
    });

    it('returns plan null with available false before planning ended', async () => {
      expect((await get(`/v1/research/${legacy}/plan`).expect(200)).body).toEqual({
        research_id: legacy,
        plan: null,
        available: false,
      });
    });
  });

  describe('GET /v1/research/:id/report', () => {
    it('returns the SPEC 2.6 report; a finding stored as a bare string becomes a finding', async () => {
      const res = await get(`/v1/research/${completed}/report`).expect(200);
      expect(res.body).toEqual({
        research_id: completed,
        query: 'Homeoffice',
        summary: 'Kurzfassung',
        findings: [
          { text: 'Ein nackter Befund', confidence: 0, source_ids: [] },
          { text: 'Strukturiert', confidence: 0.8, source_ids: ['s1'] },
        ],
        disagreements: [{ claim: 'Effekt', positions: [{ source: 's1', view: 'positiv' }] }],
        uncertainties: ['wenige Studien'],
        source_statistics: { total_sources: 2, primary_sources: 0, secondary_sources: 2 },
        methodology: 'Pipeline',
        generated_at: '2026-11-21T10:00:00.000Z',
      });
    });

    it.each([
      ['a failed run', () => failed],
      ['a running run', () => legacy],
    ])('answers 200 with the German notice and defaults for %s', async (_name, id) => {
      const res = await get(`/v1/research/${id()}/report`).expect(200);
      expect(res.body).toEqual({
        research_id: id(),
        query: expect.any(String),
        summary: Details.reportNotReady,
        findings: [],
        disagreements: [],
        uncertainties: [],
        source_statistics: {},
        methodology: '',
        generated_at: '',
      });
    });

    it('fills defaults for fields a stored report lacks', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
      await insertRunResults(t.db, id, { sources: 1, report: { summary: 'nur Summary' } });
      const res = await get(`/v1/research/${id}/report`).expect(200);
      expect(res.body).toMatchObject({
        summary: 'nur Summary',
        findings: [],
        disagreements: [],
        uncertainties: [],
        source_statistics: {},
        methodology: '',
      });
      expect(res.body.generated_at).toMatch(/Z$/);
    });
  });

  describe('unknown, hidden and malformed ids', () => {
    const paths = ['', '/status', '/sources', '/claims', '/evidence', '/plan', '/report'];
    it.each(paths)('GET /v1/research/:id%s answers 404 with the SPEC text', async (suffix) => {
      for (const id of [
        UNKNOWN_ID,
        hidden,
        NOT_A_UUID,
        "1' or '1'='1",
        '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e6',
        '%E2%9C%93',
      ]) {
        const res = await get(`/v1/research/${encodeURIComponent(id)}${suffix}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: Details.runNotFound(decodeURIComponent(encodeURIComponent(id))) });
      }
    });

    it('echoes the id as given in the 404 text', async () => {
      await get(`/v1/research/${UNKNOWN_ID}`).expect(404, { detail: `Research run ${UNKNOWN_ID} not found` });
    });
  });
});

import request from 'supertest';
import { normalizeWhitespace } from '@research/core';
import { createLlmClient } from '@research/llm';
import { createSilentLogger } from '@research/observability';
import { plausibleResponder, startFakeLlm, type FakeLlm, type FakeLlmReply } from '../../fakes/fake-llm';
import { insertTestRun } from '../support';
import { buildMountedApp, type MountedTestApp } from './support';

const QUERY = 'Wie stark stieg die Produktivität im Homeoffice?';
const PLAN = {
  query: QUERY,
  language: 'de',
  query_categories: ['quantitative'],
  sub_questions: [QUERY],
  search_queries: [{ query: 'Produktivität Homeoffice', dimension: 'evidence' }],
  counter_evidence_queries: [],
  required_fields: ['Produktivität'],
  search_dimensions: ['evidence'],
  time_sensitivity: 'none',
  confidence: 0.6,
};
const SENTENCE_A = 'Eine Studie aus dem Jahr 2021 ergab, dass die Produktivität im Homeoffice um 13 Prozent stieg.';
const SENTENCE_B =
  'Laut der Umfrage „Arbeit 2022“ arbeiteten 40 Prozent der Beschäftigten mindestens einen Tag zu Hause.';
const TEXT = `${SENTENCE_A} Das Wetter war an diesem Tag schön.\n\n${SENTENCE_B}`;
const TEXT_2 = 'Eine zweite Studie von 2022 ergab, dass die Produktivität im Homeoffice um 13 Prozent stieg.';

const server500: () => FakeLlmReply = () => ({ kind: 'status', status: 500 });

describe('LLM paths of the planner, claims and synthesis routes (fake OpenAI-compatible server)', () => {
  let llm: FakeLlm;
  let m: MountedTestApp;
  beforeAll(async () => {
    llm = await startFakeLlm();
    m = await buildMountedApp('mountedllm', {
      env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '5000' },
      // The service's client with short waits between its retries (3 attempts, as configured by default).
      llm: (config, metrics) =>
        createLlmClient({ config: config.llm, metrics, logger: createSilentLogger(), retryBaseMs: 1 }),
    });
  });
  afterAll(async () => {
    await m.close();
    await llm.close();
  });
  afterEach(() => {
    llm.script.length = 0;
    llm.responder = plausibleResponder();
  });

  const post = (path: string, body?: object) =>
    request(m.app)
      .post(path)
      .set('X-API-Key', m.t.owner.key)
      .send(body ?? {});
  const get = (path: string) => request(m.app).get(path).set('X-API-Key', m.t.other.key);
  const newRun = () => insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'completed', plan: PLAN, query: QUERY });
  const requestsOf = (schemaName: string) => llm.requests.filter((r) => r.schemaName === schemaName).length;

  describe('POST /research/planner', () => {
    it("returns the model's plan, with the caller's extra queries", async () => {
      llm.script.push({
        kind: 'json',
        content: {
          query_categories: ['quantitative'],
          sub_questions: ['Welche Studien messen die Produktivität im Homeoffice?'],
          search_queries: [{ query: 'Homeoffice Produktivität Studie', dimension: 'evidence' }],
          counter_evidence_queries: ['Homeoffice Produktivität Rückgang'],
          required_fields: ['effect_size'],
          search_dimensions: ['evidence'],
          time_sensitivity: 'medium',
          confidence: 0.75,
        },
      });
      const before = requestsOf('research_plan');
      const res = await post('/research/planner', { query: QUERY, extra_queries: ['Telearbeit Effizienz'] }).expect(
        200,
      );
      expect(requestsOf('research_plan')).toBe(before + 1);
      expect(res.body).toMatchObject({ query: QUERY, language: 'de', engine: 'llm', fallbacks: [] });
      expect(res.body.plan).toMatchObject({
        sub_questions: ['Welche Studien messen die Produktivität im Homeoffice?'],
        search_queries: [
          { query: 'Homeoffice Produktivität Studie', dimension: 'evidence' },
          { query: 'Telearbeit Effizienz', dimension: 'user' },
        ],
        time_sensitivity: 'medium',
        confidence: 0.75,
      });
      expect(llm.requests.at(-1)).toMatchObject({ model: 'fake-model', authorization: null });
    });

    it('falls back to the extractive planner when the model answers 500, and says so', async () => {
      llm.responder = server500;
      const before = llm.requests.length;
      const res = await post('/research/planner', { query: QUERY }).expect(200);
      expect(llm.requests.length - before).toBe(3); // one call, retried twice
      expect(res.body).toMatchObject({
        engine: 'extractive',
        fallbacks: [{ step: 'plan', reason: 'http', count: 1 }],
      });
      expect(res.body.plan.search_queries.length).toBeGreaterThan(0);
      expect(res.body.plan.sub_questions.length).toBeGreaterThan(0);
    });

    it('falls back when the model keeps answering outside the schema (after one repair retry)', async () => {
      llm.responder = () => ({ kind: 'json', content: { plan: 'none' } });
      const before = llm.requests.length;
      const res = await post('/research/planner', { query: QUERY }).expect(200);
      expect(llm.requests.length - before).toBe(2);
      expect(res.body).toMatchObject({ engine: 'extractive', fallbacks: [{ step: 'plan', reason: 'invalid' }] });
    });
  });

  describe('POST /research/{run_id}/claims', () => {
    it("stores the model's claims with grounded spans: a changed quote is repaired, an invented one dropped", async () => {
      const runId = await newRun();
      llm.script.push({
        kind: 'json',
        content: {
          claims: [
            { claim_text: SENTENCE_A, evidence_span: SENTENCE_A, claim_type: 'fact', confidence: 0.9 },
            {
              // Typography changed by the model (quotes, spaces): repaired to the passage's own text.
              claim_text: '40 Prozent der Beschäftigten arbeiteten mindestens einen Tag zu Hause.',
              evidence_span: SENTENCE_B.replace('„', '"').replace('“', '"').replace(/ /g, '  '),
              claim_type: 'fact',
              confidence: 0.8,
            },
            {
              // Invented: nothing in the text is close to this quote.
              claim_text: 'Der Mond besteht aus grünem Käse.',
              evidence_span: 'Der Mond besteht nach Ansicht aller Astronomen aus grünem Käse.',
              claim_type: 'fact',
              confidence: 0.9,
            },
          ],
        },
      });
      const res = await post(`/research/${runId}/claims`, { text: TEXT, url: 'https://news.example.org/a' }).expect(
        200,
      );
      expect(res.body).toMatchObject({ engine: 'llm', fallbacks: [], ungrounded_dropped: 1, created: 2 });
      const texts = res.body.claims.map((c: { claim_text: string }) => c.claim_text);
      expect(texts).toEqual([SENTENCE_A, '40 Prozent der Beschäftigten arbeiteten mindestens einen Tag zu Hause.']);
      for (const claim of res.body.claims) {
        expect(normalizeWhitespace(TEXT)).toContain(normalizeWhitespace(claim.evidence_span));
      }
      expect(res.body.claims[1].evidence_span).toContain('„Arbeit 2022“');
      const v1 = await get(`/v1/research/${runId}/claims`).expect(200);
      expect(v1.body.claims.map((c: { claim_text: string }) => c.claim_text)).not.toContain(
        'Der Mond besteht aus grünem Käse.',
      );
      expect(v1.body.total).toBe(2);
    });

    it('falls back to the extractive engine when the model answers 500, and says so', async () => {
      const runId = await newRun();
      llm.responder = server500;
      const res = await post(`/research/${runId}/claims`, { text: TEXT, url: 'https://news.example.org/b' }).expect(
        200,
      );
      expect(res.body).toMatchObject({
        engine: 'extractive',
        fallbacks: [{ step: 'analyze', reason: 'http', count: 1 }],
        ungrounded_dropped: 0,
      });
      expect(res.body.created).toBeGreaterThan(0);
      for (const claim of res.body.claims) expect(TEXT).toContain(claim.evidence_span);
      expect(res.body.claims.some((c: { claim_text: string }) => c.claim_text.includes('Wetter'))).toBe(false);
    });
  });

  describe('POST /research/{run_id}/synthesis', () => {
    async function runWithEvidence(): Promise<string> {
      const runId = await newRun();
      await post(`/research/${runId}/claims`, { text: TEXT, url: 'https://news.example.org/c' }).expect(200);
      await post(`/research/${runId}/claims`, { text: TEXT_2, url: 'https://survey.example.com/d' }).expect(200);
      await post(`/research/${runId}/evidence`).expect(200);
      return runId;
    }

    it("stores the model's summary and wording, and /v1 shows it", async () => {
      const runId = await runWithEvidence();
      let written = '';
      const plausible = plausibleResponder();
      llm.responder = (req) => {
        const reply = plausible(req);
        if (req.schemaName === 'report' && reply.kind === 'json') {
          const content = reply.content as { summary: string };
          content.summary = `Laut den Quellen gilt: ${content.summary}`;
          written = content.summary;
        }
        return reply;
      };
      const res = await post(`/research/${runId}/synthesis`).expect(200);
      expect(written).toMatch(/\[1\]/);
      // The model is asked to open with the answer, from the question and the numbered findings.
      const asked = llm.requests.filter((r) => r.schemaName === 'report').at(-1)!;
      expect(asked.messages.find((m) => m.role === 'system')!.content).toMatch(/first sentence answers the question/);
      expect(asked.messages.find((m) => m.role === 'user')!.content).toContain(`Question: ${QUERY}`);
      // The model cites finding 1 as [1]; the report, as every text of the report, as [F1].
      const cited = written.replace(/\[(\d+)\]/g, '[F$1]');
      expect(res.body).toMatchObject({ research_id: runId, engine: 'llm', fallbacks: [], summary: cited });
      expect(res.body.methodology).toContain('Bericht: Sprachmodell');
      const v1 = await get(`/v1/research/${runId}/report`).expect(200);
      expect(v1.body.summary).toBe(cited);
    });

    it("keeps only the model's sentences whose names and figures the findings they cite state", async () => {
      const runId = await runWithEvidence();
      const plausible = plausibleResponder();
      llm.responder = (req) => {
        const reply = plausible(req);
        if (req.schemaName === 'report' && reply.kind === 'json') {
          const content = reply.content as { summary: string };
          // A figure and a name no finding gives: the model's own knowledge, or an invention.
          content.summary = `Laut Erika Berger stieg die Produktivität um 40 Prozent [1]. ${content.summary}`;
        }
        return reply;
      };
      const res = await post(`/research/${runId}/synthesis`).expect(200);
      expect(res.body.engine).toBe('llm');
      expect(res.body.summary).not.toMatch(/Erika Berger|40 Prozent/);
      expect(res.body.summary).toMatch(/13 Prozent stieg \[F1\]\./);
    });

    it('falls back to the extractive report when the model answers 500, and says so', async () => {
      const runId = await runWithEvidence();
      llm.responder = server500;
      const res = await post(`/research/${runId}/synthesis`).expect(200);
      expect(res.body).toMatchObject({
        engine: 'extractive',
        fallbacks: [{ step: 'synthesize', reason: 'http', count: 1 }],
      });
      expect(res.body.findings.length).toBeGreaterThan(0);
      expect(res.body.summary).toMatch(/\[F1\]\./);
      expect(res.body.methodology).toContain('Bericht: extraktives Verfahren');
      expect(res.body.uncertainties.join(' ')).toMatch(
        /Bericht \(Runde \d\): Das Sprachmodell war nicht nutzbar \(Serverfehler/,
      );
      const v1 = await get(`/v1/research/${runId}/report`).expect(200);
      expect(v1.body.summary).toBe(res.body.summary);
    });
  });
});

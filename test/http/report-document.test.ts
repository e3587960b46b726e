import request from 'supertest';
import { Details } from '@research/core';
import { insertClaims, insertSources, replaceEvidence, upsertReport } from '@research/database';
import { reportDocumentResponseSchema, sourceEvidenceOf } from '@research/http';
import {
  FINDING_1,
  FINDING_2,
  QUERY,
  claimRow,
  documentNumbering,
  insertCompletedRun,
  markdownNumbering,
  sha256,
  sliceCodePoints,
  sourceRow,
  type CompletedRun,
} from './report-fixtures';
import { NOT_A_UUID, UNKNOWN_ID, buildTestApp, insertTestRun, type TestApp } from './support';

describe('GET /v1/research/:id/report/document', () => {
  let t: TestApp;
  let done: CompletedRun;
  let hidden: string;

  beforeAll(async () => {
    t = await buildTestApp('reportdoc');
    done = await insertCompletedRun(t.db, t.owner.id);
    // A fourth source that gave no claim: listed after the others, without evidence.
    await insertSources(t.db, [sourceRow(done.runId, 3, { url: 'https://example.net/leer', title: null })]);
    hidden = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed', hidden: true });
  });
  afterAll(() => t.close());

  const get = (path: string, key = t.other.key) => request(t.app).get(path).set('X-API-Key', key);
  const documentOf = async (id: string) => (await get(`/v1/research/${id}/report/document`).expect(200)).body;

  describe('a completed run', () => {
    it('answers the report with numbered citations, quotes with their claims and every source', async () => {
      const doc = await documentOf(done.runId);
      const claims = (await get(`/v1/research/${done.runId}/claims`).expect(200)).body.claims as Array<{
        id: string;
        span_start: number;
        span_end: number;
      }>;
      const span = (id: string) => {
        const claim = claims.find((c) => c.id === id)!;
        return { span_start: claim.span_start, span_end: claim.span_end };
      };
      const [s0, s1, s2] = done.sourceIds;
      const evidence = (primary: boolean, independence: number) => ({
        evidence_type: primary ? 'primary_report' : 'secondary_report',
        source_independence_score: expect.closeTo(independence, 6),
        primary_source_proximity: expect.closeTo(primary ? 0.9 : 0.2, 6),
        cross_source_support: 0.5,
        contradiction_level: 0.25,
        evidence_directness: 0.75,
        date_relevance_score: 1,
      });
      const quote = (citation: number, claimId: string, text: string) => ({
        citation,
        text,
        claim_id: claimId,
        source_id: claimId.replace(/-claim-\d+$/, ''),
        ...span(claimId),
        claim_text: expect.any(String),
        claim_type: 'fact',
      });
      const source = (number: number | null, id: string, url: string, title: string | null) => ({
        number,
        source_id: id,
        title,
        url,
        domain: new URL(url).hostname,
        source_type: 'reference',
        retrieved_at: '2026-11-21T09:00:00.000Z',
        content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(doc).toEqual({
        research_id: done.runId,
        query: QUERY,
        state: 'completed',
        summary: [
          'Homeoffice steigert die Produktivität um 13 Prozent ',
          { finding: 1 },
          '. <script>alert("summary")</script> ',
          { finding: 2 },
          '.',
        ],
        findings: [
          {
            number: 1,
            text: FINDING_1,
            confidence: 0.72,
            citations: [1, 2],
            quotes: [
              {
                ...quote(1, `${s0}-claim-0`, 'Die Produktivität stieg im Homeoffice um 13 Prozent'),
                claim_text: FINDING_1,
                evidence: evidence(true, 0.9),
              },
              {
                ...quote(2, `${s1}-claim-2`, 'steigt die Produktivität um 13 Prozent'),
                evidence: evidence(false, 0.6),
              },
            ],
          },
          {
            number: 2,
            text: FINDING_2,
            confidence: 0.5,
            citations: [2],
            quotes: [
              {
                ...quote(2, `${s1}-claim-3`, '<script>alert("span")</script> kein Pendeln mehr'),
                claim_text: FINDING_2,
                evidence: evidence(false, 0.4),
              },
            ],
          },
          { number: 3, text: 'Ein Befund ohne passende Aussage.', confidence: 0.3, citations: [1], quotes: [] },
        ],
        disagreements: [
          {
            claim: 'Wie stark steigt die Produktivität?',
            detail: '13 gegenüber 2',
            findings: [1],
            positions: [
              { view: 'steigt um 13 Prozent', citation: 1, source: done.urls[0], stance: 'supports', source_id: s0 },
              {
                view: 'sinkt um 2 Prozent',
                citation: null,
                source: 'https://anderswo.example/x',
                stance: 'refutes',
                source_id: null,
              },
            ],
          },
        ],
        uncertainties: ['Wenige Langzeitstudien.'],
        methodology: 'Plan, Suche, Abruf; Region: 東京 und Zürich.',
        generated_at: '2026-11-21T10:00:00.000Z',
        sources: [
          {
            ...source(1, s0, done.urls[0]!, '<script>alert("title")</script> Studie zur Größe'),
            evidence_type: 'primary_report',
            independence: expect.closeTo(0.7, 6),
            claim_count: 2,
          },
          {
            ...source(2, s1, done.urls[1]!, 'Bericht über Büroarbeit'),
            evidence_type: 'secondary_report',
            independence: expect.closeTo(0.5, 6),
            claim_count: 2,
          },
          // Its claim has no score yet.
          {
            ...source(null, s2, done.urls[2]!, 'Nicht zitiert'),
            evidence_type: null,
            independence: null,
            claim_count: 1,
          },
          {
            ...source(null, `${done.runId}-src-3`, 'https://example.net/leer', null),
            evidence_type: null,
            independence: null,
            claim_count: 0,
          },
        ],
      });
      // It is what the OpenAPI document describes.
      expect(reportDocumentResponseSchema.safeParse(doc).success).toBe(true);
    });

    it('numbers findings, citations, quotes and sources as the Markdown export of the same run', async () => {
      const doc = await documentOf(done.runId);
      const md = (await get(`/v1/research/${done.runId}/report?format=markdown`).expect(200)).text;
      expect(documentNumbering(doc)).toEqual(markdownNumbering(md));
      expect(Object.keys(markdownNumbering(md).sources)).toEqual(['1', '2']);
    });

    it("slices each quote's passage out of its source's text at span_start..span_end (code points)", async () => {
      const doc = await documentOf(done.runId);
      const claims = (await get(`/v1/research/${done.runId}/claims`).expect(200)).body.claims as Array<{
        id: string;
        evidence_span: string;
      }>;
      const quotes = doc.findings.flatMap((f: { quotes: unknown[] }) => f.quotes) as Array<{
        claim_id: string;
        source_id: string;
        span_start: number;
        span_end: number;
      }>;
      expect(quotes).toHaveLength(3);
      for (const q of quotes) {
        const content = await get(`/v1/research/${done.runId}/sources/${q.source_id}/content`).expect(200);
        const span = claims.find((c) => c.id === q.claim_id)!.evidence_span;
        expect(sliceCodePoints(content.body.text, q.span_start, q.span_end)).toBe(span);
        // Characters beyond the BMP stand before each passage: UTF-16 offsets would miss it.
        expect(content.body.text.slice(q.span_start, q.span_end)).not.toBe(span);
        expect(sha256(content.body.text)).toBe(content.body.content_sha256);
      }
    });

    it('lists the cited sources by number first, then the others in the order they were found', async () => {
      const runId = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed', query: QUERY });
      const urls = [0, 1, 2, 3].map((i) => `https://quelle-${i}.example/seite`);
      const sources = urls.map((url, i) => sourceRow(runId, i, { url, title: `Quelle ${i}` }));
      await insertSources(t.db, sources);
      const claims = sources.map((s, i) => claimRow(runId, s.id, i, { text: FINDING_1, span: `Satz ${i}` }));
      await insertClaims(t.db, claims);
      await replaceEvidence(t.db, runId, []);
      // The report cites the last source found first, and the second after it.
      await upsertReport(
        t.db,
        runId,
        {
          summary: 'Kurz [F1].',
          findings: [{ text: FINDING_1, confidence: 0.6, source_ids: [sources[3]!.id, sources[1]!.id] }],
        },
        new Date(),
      );
      const doc = await documentOf(runId);
      // The engine cites finding 1 as [F1] (the fixture's other report, stored before the F, as [1]).
      expect(doc.summary).toEqual(['Kurz ', { finding: 1 }, '.']);
      expect(doc.sources.map((s: { number: number | null; url: string }) => [s.number, s.url])).toEqual([
        [1, urls[3]],
        [2, urls[1]],
        [null, urls[0]],
        [null, urls[2]],
      ]);
      // Spans the analyze step could not place are null.
      expect(
        doc.findings[0].quotes.map((q: { span_start: null; span_end: null }) => [q.span_start, q.span_end]),
      ).toEqual([
        [null, null],
        [null, null],
      ]);
      const md = (await get(`/v1/research/${runId}/report?format=markdown`).expect(200)).text;
      expect(documentNumbering(doc)).toEqual(markdownNumbering(md));
    });
  });

  describe('before the report exists', () => {
    it("answers SPEC's notice as the summary, no findings, and the sources found so far", async () => {
      const runId = await insertTestRun(t.db, { owner: t.owner.id, state: 'analyzing', query: QUERY });
      const found = sourceRow(runId, 0, { url: 'https://example.org/frueh', title: 'Früh' });
      await insertSources(t.db, [found]);
      await insertClaims(t.db, [claimRow(runId, found.id, 0, { text: FINDING_1, span: 'extracted' }, found.content)]);
      const doc = await documentOf(runId);
      expect(doc).toEqual({
        research_id: runId,
        query: QUERY,
        state: 'analyzing',
        summary: [Details.reportNotReady],
        findings: [],
        disagreements: [],
        uncertainties: [],
        methodology: '',
        generated_at: '',
        sources: [expect.objectContaining({ number: null, source_id: found.id, claim_count: 1, evidence_type: null })],
      });
    });
  });

  describe('runs that cannot be read', () => {
    it('answers 404 for an unknown, malformed or hidden run', async () => {
      for (const id of [UNKNOWN_ID, NOT_A_UUID, hidden]) {
        const res = await get(`/v1/research/${id}/report/document`).expect(404);
        expect(res.body).toEqual({ detail: Details.runNotFound(id) });
      }
    });

    it('answers 401 without a key or with a wrong one', async () => {
      await request(t.app).get(`/v1/research/${done.runId}/report/document`).expect(401);
      await get(`/v1/research/${done.runId}/report/document`, 'garbage').expect(401);
    });

    it('is a read like GET …/report: the owner, another user and an administrator get the same answer', async () => {
      const answers = await Promise.all(
        [t.owner.key, t.other.key, t.admin.key].map((key) =>
          get(`/v1/research/${done.runId}/report/document`, key).expect(200),
        ),
      );
      for (const a of answers) expect(a.text).toBe(answers[0]!.text);
    });
  });
});

describe('sourceEvidenceOf', () => {
  const claim = (id: string, source: string) => ({ id, source_id: source });
  const score = (id: string, type: string, independence: number) => ({
    claim_id: id,
    evidence_type: type,
    source_independence_score: independence,
  });

  it('calls a source primary when any of its claims is reported first-hand, and averages its independence', () => {
    const bySource = sourceEvidenceOf(
      [claim('a', 'S'), claim('b', 'S'), claim('c', 'T'), claim('d', 'T')],
      [
        score('a', 'secondary_report', 0.2),
        score('b', 'primary_report', 0.6),
        score('c', 'secondary_report', 1),
        score('d', 'secondary_report', 0.5),
      ],
    );
    expect(bySource.get('S')).toEqual({ evidenceType: 'primary_report', independence: 0.4, claimCount: 2 });
    expect(bySource.get('T')).toEqual({ evidenceType: 'secondary_report', independence: 0.75, claimCount: 2 });
  });

  it('averages only scored claims, counts every claim, and gives null without a score', () => {
    const bySource = sourceEvidenceOf(
      [claim('a', 'S'), claim('b', 'S'), claim('c', 'U')],
      [score('a', 'secondary_report', 0.3), score('elsewhere', 'primary_report', 1)],
    );
    expect(bySource.get('S')).toEqual({ evidenceType: 'secondary_report', independence: 0.3, claimCount: 2 });
    expect(bySource.get('U')).toEqual({ evidenceType: null, independence: null, claimCount: 1 });
    expect(bySource.has('V')).toBe(false);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Details } from '@research/core';
import { insertClaims, insertSources, upsertReport } from '@research/database';
import { describeWithCommand } from '../support/command';
import { WORST_BLOCK_MARGIN_MS, worstEventLoopBlock } from '../support/event-loop';
import { FINDING_1, FINDING_2, QUERY, claimRow, insertCompletedRun, sourceRow } from './report-fixtures';
import { UNKNOWN_ID, buildTestApp, insertTestRun, type TestApp } from './support';

/** The text of a PDF as pdftotext reads it, its whitespace collapsed (lines wrap where the layout wants). */
function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-export-'));
  try {
    const file = path.join(dir, 'report.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('GET /v1/research/:id/report exports', () => {
  let t: TestApp;
  let runId: string;
  let urls: string[];
  let running: string;
  let hidden: string;

  beforeAll(async () => {
    t = await buildTestApp('export');
    ({ runId, urls } = await insertCompletedRun(t.db, t.owner.id));
    running = await insertTestRun(t.db, { owner: t.owner.id, state: 'analyzing', query: QUERY });
    hidden = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed', hidden: true });
  });
  afterAll(() => t.close());

  const get = (id: string, query = '', accept?: string) => {
    const req = request(t.app).get(`/v1/research/${id}/report${query}`).set('X-API-Key', t.other.key);
    return accept ? req.set('Accept', accept) : req;
  };
  const getPdf = (id: string, query = '?format=pdf') => get(id, query).buffer(true).parse(binary);

  describe('Markdown', () => {
    it('has the title, summary, findings with numbered citations, quotes, disagreements and sources', async () => {
      const res = await get(runId, '?format=markdown').expect(200);
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`inline; filename="research-${runId}.md"`);
      const md = res.text;
      expect(md.startsWith(`# ${QUERY}\n`)).toBe(true);
      // The summary cites findings; in the export `[n]` is the n-th source, so they read [F1], [F2].
      expect(md).toContain('Homeoffice steigert die Produktivität um 13 Prozent [F1].');
      expect(md).toContain(`**F1.** ${FINDING_1} [1][2]`);
      expect(md).toContain('> "Die Produktivität stieg im Homeoffice um 13 Prozent" [1]');
      expect(md).toContain('> "steigt die Produktivität um 13 Prozent" [2]');
      expect(md).not.toContain('neun Monate');
      // Each source is cited once; a source the run does not hold is not cited, and no claim is quoted for
      // a finding its sources do not state.
      expect(md).toContain('**F3.** Ein Befund ohne passende Aussage. [1]\n\n_Confidence 30 %_\n\n## Disagreements');
      expect(md).toContain('- [1] (supports): steigt um 13 Prozent');
      expect(md).toContain('- https://anderswo.example/x (refutes): sinkt um 2 Prozent');
      expect(md).toContain('- Wenige Langzeitstudien.');
      expect(md).toContain(
        `- [1] \\<script\\>alert("title")\\</script\\> Studie zur Größe, <${urls[0]}>, retrieved 2026-11-21 09:00 UTC`,
      );
      expect(md).toContain(`- [2] Bericht über Büroarbeit, <${urls[1]}>, retrieved 2026-11-21 09:00 UTC`);
      // Only cited sources are listed.
      expect(md).not.toContain(urls[2]);
      // Every `<` of the run's text is escaped: Markdown shows it as text, never as a tag.
      expect(md).not.toMatch(/(^|[^\\])<\/?script/im);
    });
  });

  describe('HTML', () => {
    it('is one self-contained page in which every text of the sources and the run is escaped', async () => {
      const res = await get(runId, '?format=html').expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`inline; filename="research-${runId}.html"`);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      const html = res.text;
      expect(html).not.toMatch(/<script/i);
      for (const where of ['title', 'claim', 'span', 'summary'])
        expect(html).toContain(`&lt;script&gt;alert(&quot;${where}&quot;)&lt;/script&gt;`);
      // Nothing is loaded from elsewhere: no external stylesheet, image, frame or script.
      expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b|\bsrc=|@import/i);
      expect(html).toContain('<style>');
      expect(html).toContain(`<a href="https://example.org/studie?a=1&amp;b=2">`);
      expect(html).toContain('<a class="cite" href="#source-1">[1]</a><a class="cite" href="#source-2">[2]</a>');
      expect(html).toContain(`<title>${QUERY}</title>`);
    });
  });

  describeWithCommand('PDF', 'pdftotext', 'apt-get install poppler-utils', () => {
    it('is a PDF whose text holds the citations, quotes, umlauts and source URLs', async () => {
      const res = await getPdf(runId).expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`inline; filename="research-${runId}.pdf"`);
      const pdf = res.body as Buffer;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(pdf);
      expect(text).toContain(QUERY);
      expect(text).toContain(`F1. ${FINDING_1} [1][2]`);
      expect(text).toContain('[F1]');
      expect(text).toContain('Die Produktivität stieg im Homeoffice um 13 Prozent” [1]');
      expect(text).toContain('[1] <script>alert("title")</script> Studie zur Größe');
      for (const url of urls.slice(0, 2)) expect(text).toContain(url);
      // The standard fonts cannot show 東京: it becomes "?", never other characters' bytes.
      expect(text).toContain('Region: ?? und Zürich.');
    });

    it('shows the German notice of a report that does not exist yet', async () => {
      const res = await getPdf(running).expect(200);
      expect(pdfText(res.body as Buffer)).toContain(Details.reportNotReady);
    });
  });

  describe('choosing the format', () => {
    it('answers the JSON of SPEC 4.8 without a format, for format=json and for Accept JSON or */*', async () => {
      const plain = await get(runId).expect(200);
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(plain.body).toEqual({
        research_id: runId,
        query: QUERY,
        summary: 'Homeoffice steigert die Produktivität um 13 Prozent [1]. <script>alert("summary")</script> [2].',
        findings: [
          { text: FINDING_1, confidence: 0.72, source_ids: [`${runId}-src-0`, `${runId}-src-1`] },
          { text: FINDING_2, confidence: 0.5, source_ids: [`${runId}-src-1`] },
          {
            text: 'Ein Befund ohne passende Aussage.',
            confidence: 0.3,
            source_ids: ['gone', `${runId}-src-0`, `${runId}-src-0`],
          },
        ],
        disagreements: [expect.objectContaining({ claim: 'Wie stark steigt die Produktivität?' })],
        uncertainties: ['Wenige Langzeitstudien.'],
        source_statistics: { total_sources: 3 },
        methodology: 'Plan, Suche, Abruf; Region: 東京 und Zürich.',
        generated_at: '2026-11-21T10:00:00.000Z',
      });
      for (const [query, accept] of [
        ['?format=json', undefined],
        ['', 'application/json'],
        ['', '*/*'],
        ['', 'image/png'],
        ['?format=json', 'text/html'],
      ] as const) {
        const res = await get(runId, query, accept).expect(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.text).toBe(plain.text);
      }
    });

    it('follows Accept when no format is given, and format when both are', async () => {
      const md = await get(runId, '', 'text/markdown').expect(200);
      expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(md.headers['vary']).toMatch(/Accept/);
      const html = await get(runId, '', 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8').expect(200);
      expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
      const pdf = await get(runId, '', 'application/pdf').buffer(true).parse(binary).expect(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const both = await get(runId, '?format=markdown', 'application/pdf').expect(200);
      expect(both.headers['content-type']).toBe('text/markdown; charset=utf-8');
    });

    it('refuses an unknown format with 422', async () => {
      for (const query of ['?format=xml', '?format=PDF', '?format=pdf&format=html']) {
        const res = await get(runId, query).expect(422);
        expect(res.body).toEqual({ detail: 'format: must be one of json, markdown, html, pdf' });
      }
    });
  });

  describe('before the report exists', () => {
    it('answers the notice and the defaults in every format', async () => {
      const md = await get(running, '?format=markdown').expect(200);
      expect(md.text).toContain(Details.reportNotReady);
      expect(md.text).not.toContain('## Findings');
      const html = await get(running, '?format=html').expect(200);
      expect(html.text).toContain(Details.reportNotReady);
      const json = await get(running).expect(200);
      expect(json.body.summary).toBe(Details.reportNotReady);
    });
  });

  describe('a large report', () => {
    it('renders 300 findings with 900 quotes as PDF without holding the event loop', async () => {
      const big = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed', query: QUERY });
      const count = 300;
      const sources = Array.from({ length: count }, (_, i) =>
        sourceRow(big, i, { url: `https://example.org/seite/${i}`, title: `Quelle ${i} über Produktivität` }),
      );
      await insertSources(t.db, sources);
      const claims = sources.flatMap((source, i) =>
        [0, 1, 2].map((j) =>
          claimRow(big, source.id, i * 3 + j, {
            text: `Aussage ${i}.${j}: Homeoffice ändert die Produktivität der Beschäftigten in Studie ${i}.`,
            span: `Die Produktivität der Beschäftigten änderte sich in Studie ${i} über viele Monate hinweg.`,
          }),
        ),
      );
      await insertClaims(t.db, claims);
      const findings = sources.map((_, i) => ({
        text: claims[i * 3]!.claim_text,
        confidence: 0.5,
        source_ids: [0, 1, 2].map((k) => sources[(i + k) % count]!.id),
      }));
      await upsertReport(t.db, big, { summary: 'Viele Befunde [1].', findings }, new Date());
      const { result, worstMs } = await worstEventLoopBlock(() => getPdf(big).expect(200));
      expect((result.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // Laid out at once, this PDF holds the loop for about half a second; in slices, for a few ms each.
      expect(worstMs).toBeLessThan(WORST_BLOCK_MARGIN_MS);
    });
  });

  describe('runs that cannot be read', () => {
    it('answers 404 for an unknown or hidden run in every format', async () => {
      for (const id of [UNKNOWN_ID, hidden, 'not-a-uuid'])
        for (const query of ['?format=markdown', '?format=html', '?format=pdf', '?format=xml']) {
          const res = await get(id, query).expect(404);
          expect(res.body).toEqual({ detail: Details.runNotFound(id) });
        }
    });

    it('answers 401 without a key', async () => {
      await request(t.app).get(`/v1/research/${runId}/report?format=markdown`).expect(401);
    });
  });
});

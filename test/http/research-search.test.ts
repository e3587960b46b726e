import request from 'supertest';
import { writeReport } from '@research/pipeline';
import { buildTestApp, insertTestRun, type TestApp } from './support';

// GET /v1/research?q=…: full-text search over a run's question and its report's summary, with the list's paging,
// total and other filter (parent_id). Reports are stored with the pipeline's own writer, as a run's last step does.
describe('GET /v1/research?q=', () => {
  let t: TestApp;
  const base = Date.UTC(2026, 0, 1);
  const at = (minutes: number) => new Date(base + minutes * 60_000);
  let inQuestion: string;
  let inSummary: string;
  let inBoth: string;
  let olderInQuestion: string;
  let ofOther: string;
  let hidden: string;
  let followUp: string;

  async function reported(runId: string, summary: string): Promise<void> {
    await t.db.transaction().execute((trx) =>
      writeReport(trx, runId, {
        report: { research_id: runId, query: 'q', summary, findings: [], generated_at: new Date(base).toISOString() },
        generatedAt: new Date(base),
      }),
    );
  }

  beforeAll(async () => {
    t = await buildTestApp('search');
    for (let i = 0; i < 5; i++) {
      await insertTestRun(t.db, { owner: t.owner.id, query: `Unrelated question ${i}`, createdAt: at(i) });
    }
    olderInQuestion = await insertTestRun(t.db, {
      owner: t.owner.id,
      query: 'Wie schnell wächst der Bambus im Sommer?',
      createdAt: at(10),
      state: 'completed',
    });
    inQuestion = await insertTestRun(t.db, {
      owner: t.owner.id,
      query: 'Warum blüht der Bambus so selten?',
      createdAt: at(20),
      state: 'completed',
    });
    inSummary = await insertTestRun(t.db, {
      owner: t.owner.id,
      query: 'Which grass grows fastest?',
      createdAt: at(30),
      state: 'completed',
    });
    await reported(inSummary, 'Bambus (bamboo) grows up to 91 cm a day.');
    inBoth = await insertTestRun(t.db, {
      owner: t.owner.id,
      query: 'Ist Bambus ein Gras?',
      createdAt: at(5),
      state: 'completed',
    });
    await reported(inBoth, 'Ja: Bambus gehört zu den Süßgräsern.');
    ofOther = await insertTestRun(t.db, { owner: t.other.id, query: 'Bambus als Baustoff', createdAt: at(1) });
    hidden = await insertTestRun(t.db, {
      owner: t.owner.id,
      query: 'Bambus hidden',
      createdAt: at(40),
      hidden: true,
      state: 'cancelled',
    });
    followUp = await insertTestRun(t.db, { owner: t.owner.id, query: 'Bambus im Garten', createdAt: at(50) });
    await t.db.updateTable('research_runs').set({ parent_id: inQuestion }).where('id', '=', followUp).execute();
  });
  afterAll(() => t.close());

  const list = (query: string, key = t.owner.key) => request(t.app).get(`/v1/research${query}`).set('X-API-Key', key);
  const ids = (body: { items: Array<{ research_id: string }> }) => body.items.map((i) => i.research_id);

  it('finds runs by a word of the question or of the report, the question weighing more, then the newest first', async () => {
    const res = (await list('?q=bambus').expect(200)).body;
    // In question and summary first; then question only (newest first, however many words they have); then summary only.
    expect(ids(res)).toEqual([inBoth, followUp, inQuestion, olderInQuestion, ofOther, inSummary]);
    expect(res).toMatchObject({ total: 6, limit: 10, offset: 0 });
    expect(res.items[0]).toMatchObject({ research_id: inBoth, query: 'Ist Bambus ein Gras?', state: 'completed' });
    expect(ids(res)).not.toContain(hidden);
  });

  it('finds a run by a word only its report holds, whatever the case, and no run for a word none holds', async () => {
    expect(ids((await list('?q=Süßgräsern').expect(200)).body)).toEqual([inBoth]);
    expect(ids((await list('?q=BAMBOO').expect(200)).body)).toEqual([inSummary]);
    expect((await list('?q=Photosynthese').expect(200)).body).toMatchObject({ total: 0, items: [] });
  });

  it('takes words as a search box does: all of them, a quoted phrase, or, and -word', async () => {
    expect(ids((await list(`?q=${encodeURIComponent('Bambus Sommer')}`).expect(200)).body)).toEqual([olderInQuestion]);
    expect(ids((await list(`?q=${encodeURIComponent('"blüht der Bambus"')}`).expect(200)).body)).toEqual([inQuestion]);
    expect(ids((await list(`?q=${encodeURIComponent('Sommer or Baustoff')}`).expect(200)).body).sort()).toEqual(
      [olderInQuestion, ofOther].sort(),
    );
    const without = ids((await list(`?q=${encodeURIComponent('bambus -garten -gras')}`).expect(200)).body);
    expect(without).not.toContain(followUp);
    expect(without).not.toContain(inBoth);
    expect(without).toContain(inQuestion);
    // Punctuation alone asks for nothing: no run.
    expect((await list(`?q=${encodeURIComponent('!!! ???')}`).expect(200)).body).toMatchObject({ total: 0, items: [] });
  });

  it('pages the ranked results with the total of all matches', async () => {
    const first = (await list('?q=bambus&limit=2').expect(200)).body;
    expect(first).toMatchObject({ total: 6, limit: 2, offset: 0 });
    expect(ids(first)).toEqual([inBoth, followUp]);
    const second = (await list('?q=bambus&limit=2&offset=2').expect(200)).body;
    expect(ids(second)).toEqual([inQuestion, olderInQuestion]);
    expect((await list('?q=bambus&offset=6').expect(200)).body).toMatchObject({ total: 6, items: [] });
  });

  it('combines with parent_id', async () => {
    expect(ids((await list(`?q=bambus&parent_id=${inQuestion}`).expect(200)).body)).toEqual([followUp]);
    expect((await list(`?q=sommer&parent_id=${inQuestion}`).expect(200)).body).toMatchObject({ total: 0 });
  });

  it('shows every caller what the list shows (not filtered by owner), never a hidden run', async () => {
    for (const key of [t.owner.key, t.other.key, t.admin.key]) {
      const res = (await list('?q=bambus', key).expect(200)).body;
      expect(res.total).toBe(6);
      expect(ids(res)).toContain(ofOther);
    }
    expect((await list('?q=hidden', t.admin.key).expect(200)).body.total).toBe(0);
    await request(t.app).delete(`/v1/research/${ofOther}`).set('X-API-Key', t.other.key).expect(200);
    expect(ids((await list('?q=baustoff').expect(200)).body)).toEqual([]);
  });

  it('refuses an empty, blank, repeated or too long q, and a malformed parent_id, with 422', async () => {
    expect((await list('?q=').expect(422)).body.detail).toMatch(/^q: /);
    expect((await list('?q=%20%20').expect(422)).body.detail).toBe('q: must not be blank');
    expect((await list('?q=a&q=b').expect(422)).body.detail).toMatch(/^q: /);
    expect((await list(`?q=${'x'.repeat(201)}`).expect(422)).body.detail).toBe('q: must be 1 to 200 characters');
    await list(`?q=${'x'.repeat(200)}`).expect(200);
    expect((await list('?parent_id=not-a-uuid').expect(422)).body.detail).toBe(
      'parent_id: must be a research run id (a UUID)',
    );
    await request(t.app).get('/v1/research?q=bambus').expect(401);
  });
});

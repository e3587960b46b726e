import request from 'supertest';
import { buildTestApp, type TestApp } from './support';

// How a run was asked for beyond SPEC's fields (plan review, collections, a cap on LLM tokens) is shown back in
// its status and its manifest, so that a client sees what it asked and the page's Run again can ask it alike.

describe('what a run was asked with, shown back', () => {
  let t: TestApp;
  let collectionId: string;

  const get = (path: string) => request(t.app).get(path).set('X-API-Key', t.owner.key);
  const post = (path: string, body: object) => request(t.app).post(path).set('X-API-Key', t.owner.key).send(body);

  /** Creates a run with `fields` and reads its status and manifest. */
  async function created(fields: object) {
    const id = (await post('/v1/research', { query: 'Harbour surveys', ...fields }).expect(200)).body.research_id;
    const status = (await get(`/v1/research/${id}`).expect(200)).body;
    const manifest = (await get(`/v1/research/${id}/manifest`).expect(200)).body;
    return { status, manifest };
  }

  beforeAll(async () => {
    t = await buildTestApp('asked');
    collectionId = (await post('/v1/collections', { name: 'Surveys', language: 'en' }).expect(201)).body.collection_id;
  });
  afterAll(() => t.close());

  it('shows review_plan, the collections beside the web and the token cap of a run created with them', async () => {
    const { status, manifest } = await created({
      review_plan: true,
      collection_ids: [collectionId],
      max_llm_tokens: 50_000,
    });
    for (const shown of [status, manifest]) {
      expect(shown.review_plan).toBe(true);
      expect(shown.collections).toEqual({ ids: [collectionId], web: true });
      expect(shown.cost.max_llm_tokens).toBe(50_000);
    }
  });

  it('shows a collections-only run as not searching the web', async () => {
    const { status, manifest } = await created({ collection_ids: [collectionId], include_domains: [] });
    expect(status).toMatchObject({ review_plan: false, collections: { ids: [collectionId], web: false } });
    expect(manifest).toMatchObject({ review_plan: false, collections: { ids: [collectionId], web: false } });
  });

  it('shows false and null for a run created without them', async () => {
    const { status, manifest } = await created({});
    for (const shown of [status, manifest]) {
      expect(shown).toMatchObject({ review_plan: false, collections: null, parent_id: null });
      expect(shown.cost.max_llm_tokens).toBeNull();
    }
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { contentSha256 } from '@research/core';
import { createSilentLogger } from '@research/observability';
import { LOCAL_COLLECTION_KEY, startLocalCollectionSync, type LocalCollectionSync } from '@research/runtime';
import { LocalSearchProvider } from '@research/search';
import { buildTestApp, type TestApp } from '../http/support';

// LOCAL_CORPUS_DIR as the service's own collection: kept in step with the local provider's index (added, changed
// and removed files), readable and searchable by every key, changed by no one but the folder.

describe('the local folder as a collection', () => {
  let t: TestApp;
  let dir: string;
  let provider: LocalSearchProvider;
  let sync: LocalCollectionSync;

  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  const collectionId = async () =>
    (
      await t.db
        .selectFrom('collections')
        .select('id')
        .where('system_key', '=', LOCAL_COLLECTION_KEY)
        .executeTakeFirstOrThrow()
    ).id;
  const stored = async () =>
    (
      await t.db
        .selectFrom('collection_documents')
        .select(['filename', 'content_sha256', 'content'])
        .where('collection_id', '=', await collectionId())
        .orderBy('filename')
        .execute()
    ).map((d) => ({ filename: d.filename, ok: d.content_sha256 === contentSha256(d.content) }));

  beforeAll(async () => {
    t = await buildTestApp('local-collection');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-collection-'));
    write('notes/tides.md', '# Tides\n\nThe tides of the Bay of Fundy rise sixteen metres.\n');
    write('lighthouse.txt', 'Lighthouse log\n\nThe keeper lit the lamp at dusk every evening.');
    write('.hidden.txt', 'Never indexed.');
    provider = new LocalSearchProvider({
      corpusDir: dir,
      logger: createSilentLogger(),
      watch: false,
      pollIntervalMs: 0,
    });
    sync = startLocalCollectionSync({ db: t.db, provider, logger: createSilentLogger(), intervalMs: 0 });
  });
  afterAll(async () => {
    await sync?.close();
    await provider?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('stores every file of the folder, hashed, in a collection of the service', async () => {
    await sync.syncNow();
    expect(await stored()).toEqual([
      { filename: 'lighthouse.txt', ok: true },
      { filename: 'notes/tides.md', ok: true },
    ]);
    // Another pass with nothing changed changes nothing.
    expect(await sync.syncNow()).toEqual({ added: 0, removed: 0, documents: 2 });
  });

  it('is listed, read and searched by every key, and changed by none', async () => {
    const id = await collectionId();
    const listed = await request(t.app).get('/v1/collections?limit=100').set('X-API-Key', t.other.key).expect(200);
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({ collection_id: id, owner: 'system', document_count: 2, text_search_config: 'simple' }),
    );
    const found = await request(t.app)
      .get(`/v1/collections/${id}/search?q=fundy`)
      .set('X-API-Key', t.other.key)
      .expect(200);
    expect(found.body.results.map((r: { filename: string }) => r.filename)).toEqual(['notes/tides.md']);
    for (const user of [t.other, t.admin]) {
      const upload = await request(t.app)
        .post(`/v1/collections/${id}/documents`)
        .set('X-API-Key', user.key)
        .attach('file', Buffer.from('x'), 'x.txt')
        .expect(403);
      expect(upload.body.detail).toBe(
        'This collection is kept in step with its folder by the service; change the folder.',
      );
      await request(t.app).delete(`/v1/collections/${id}`).set('X-API-Key', user.key).expect(403);
    }
    await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.other.key)
      .send({ query: 'Bay of Fundy tides', collection_ids: [id] })
      .expect(200);
  });

  it('follows the folder: a new file is added, a changed one replaced, a removed one deleted', async () => {
    const id = await collectionId();
    const before = await t.db
      .selectFrom('collection_documents')
      .select(['filename', 'id'])
      .where('collection_id', '=', id)
      .execute();
    write('notes/tides.md', '# Tides\n\nThe tides of the Bay of Fundy rise up to sixteen metres twice a day.\n');
    write('storms.txt', 'Storm diary\n\nThe winter storms closed the harbour for a week.');
    fs.rmSync(path.join(dir, 'lighthouse.txt'));
    await provider.refresh();
    expect(await sync.syncNow()).toEqual({ added: 2, removed: 2, documents: 2 });
    expect(await stored()).toEqual([
      { filename: 'notes/tides.md', ok: true },
      { filename: 'storms.txt', ok: true },
    ]);
    const after = await t.db
      .selectFrom('collection_documents')
      .select(['filename', 'id', 'content'])
      .where('collection_id', '=', id)
      .execute();
    expect(after.find((d) => d.filename === 'notes/tides.md')!.content).toContain('twice a day');
    expect(after.map((d) => d.id)).not.toContain(before.find((d) => d.filename === 'notes/tides.md')!.id);
    const found = await request(t.app)
      .get(`/v1/collections/${id}/search?q=lamp`)
      .set('X-API-Key', t.owner.key)
      .expect(200);
    expect(found.body.results).toEqual([]);
  });
});

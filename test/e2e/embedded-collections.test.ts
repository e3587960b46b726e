import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { waitFor } from '../support/wait';
import { STANDALONE_MAIN, client } from './support';
import { textContent, writePdf } from '../support/pdf';

// Collections on the embedded database (PGlite under DATA_DIR, `npm start`): the migration, the tsvector index
// and its search, and a run that reads only a collection (never the wiki the service is configured with).

const NOTE =
  'Chloroplast field notes\n\nIn the greenhouse trial, chloroplasts of the basil plants converted light energy into ' +
  'chemical energy stored as sugar, and the leaves grown under blue light held the most chlorophyll.';

describe('collections on the embedded database', () => {
  let dir: string;
  let wiki: FakeWiki;
  let service: NodeProcess;
  let api: ReturnType<typeof client>;
  let base: string;
  let key: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-embedded-collections-'));
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    const port = await freePort();
    service = spawnNodeProcess('service', STANDALONE_MAIN, {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WIKIPEDIA_API_URL: wiki.apiUrl,
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    await waitForLogLine(service, 'service listening', 60_000);
    key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    base = `http://127.0.0.1:${port}`;
    api = client(base, key);
  });
  afterAll(async () => {
    await killAllProcesses();
    await wiki.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const upload = async (collection: string, body: Buffer, filename: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(body)]), filename);
    const response = await fetch(`${base}/v1/collections/${collection}/documents`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };

  it('stores, indexes and searches uploads in the collection language, and a run reads only the collection', async () => {
    const created = await api<{ collection_id: string; text_search_config: string }>('POST', '/v1/collections', {
      name: 'Greenhouse',
      language: 'en',
    });
    expect(created.status).toBe(201);
    expect(created.body.text_search_config).toBe('english');
    const id = created.body.collection_id;
    const note = await upload(id, Buffer.from(NOTE), 'notes.txt');
    expect(note.status).toBe(201);
    const pdf = await upload(id, writePdf([{ content: textContent(['Stomata close at night.']) }]), 'stomata.pdf');
    expect(pdf.status).toBe(201);

    const found = await api<{ results: Array<{ document_id: string; snippet: string }> }>(
      'GET',
      `/v1/collections/${id}/search?q=${encodeURIComponent('converting chloroplast')}`,
    );
    expect(found.status).toBe(200);
    expect(found.body.results.map((r) => r.document_id)).toEqual([note.body.document_id]);
    expect(found.body.results[0]!.snippet).toContain('chloroplasts');

    const wikiBefore = { ...wiki.requests };
    const run = await api<{ research_id: string }>('POST', '/v1/research', {
      query: 'How do chloroplasts convert light energy?',
      language: 'en',
      depth: 'quick',
      collection_ids: [id],
      include_domains: [],
    });
    expect(run.status).toBe(200);
    const runId = run.body.research_id;
    const finished = await waitFor(
      'the run to complete',
      async () => {
        const r = await api<{ state: string; collections: unknown }>('GET', `/v1/research/${runId}/status`);
        if (r.body.state === 'failed') throw new Error(JSON.stringify(r.body));
        return r.body.state === 'completed' ? r.body : undefined;
      },
      45_000,
      200,
    );
    // Its status shows the collection it read, and that it read no web.
    expect(finished.collections).toEqual({ ids: [id], web: false });
    const sources = (
      await api<{ sources: Array<{ id: string; url: string; content_sha256: string }> }>(
        'GET',
        `/v1/research/${runId}/sources`,
      )
    ).body.sources;
    expect(sources.map((s) => s.url)).toContain(`collection://${id}/${note.body.document_id}`);
    expect(sources.every((s) => s.url.startsWith(`collection://${id}/`))).toBe(true);
    const cited = sources.find((s) => s.url.endsWith(note.body.document_id!))!;
    expect(cited.content_sha256).toBe(note.body.content_sha256);
    expect(wiki.requests).toEqual(wikiBefore);

    expect((await api('DELETE', `/v1/collections/${id}`)).status).toBe(200);
    const content = await api<{ content_sha256: string }>('GET', `/v1/research/${runId}/sources/${cited.id}/content`);
    expect(content.body.content_sha256).toBe(note.body.content_sha256);
  });
});

describe('the local folder as a collection on the embedded database', () => {
  let dir: string;
  let corpus: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-embedded-local-'));
    corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-embedded-corpus-'));
    fs.writeFileSync(path.join(corpus, 'greenhouse.md'), `# Greenhouse\n\n${NOTE}\n`);
  });
  afterAll(async () => {
    await killAllProcesses();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(corpus, { recursive: true, force: true });
  });

  it('keeps LOCAL_CORPUS_DIR as a collection of the service that every key can search', async () => {
    const port = await freePort();
    const service = spawnNodeProcess('service-local', STANDALONE_MAIN, {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEARCH_PROVIDER: 'local',
      LOCAL_CORPUS_DIR: corpus,
    });
    await waitForLogLine(service, 'local folder collection in step', 60_000);
    const key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    const api = client(`http://127.0.0.1:${port}`, key);
    const listed = await api<{ items: Array<{ collection_id: string; owner: string; document_count: number }> }>(
      'GET',
      '/v1/collections',
    );
    const local = listed.body.items.find((c) => c.owner === 'system')!;
    expect(local.document_count).toBe(1);
    const found = await api<{ results: Array<{ filename: string }> }>(
      'GET',
      `/v1/collections/${local.collection_id}/search?q=chlorophyll`,
    );
    expect(found.body.results.map((r) => r.filename)).toEqual(['greenhouse.md']);
  });
});

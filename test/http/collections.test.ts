import crypto from 'node:crypto';
import request from 'supertest';
import { buildTestApp, type TestApp, type TestUser } from './support';
import { textContent, writePdf } from '../support/pdf';

// /v1/collections through the real API over a real Postgres: uploads of each type read by the crawler's
// extraction, hashed and indexed; full-text search in the collection's language; who may do what.

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
const MALFORMED = 'not-a-uuid';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('/v1/collections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('collections');
  });
  afterAll(() => t.close());

  const as = (user: TestUser) => ({
    get: (path: string) => request(t.app).get(path).set('X-API-Key', user.key),
    post: (path: string, body?: object) => request(t.app).post(path).set('X-API-Key', user.key).send(body),
    del: (path: string) => request(t.app).delete(path).set('X-API-Key', user.key),
    upload: (path: string, body: Buffer, filename: string, contentType = 'application/octet-stream') =>
      request(t.app).post(path).set('X-API-Key', user.key).attach('file', body, { filename, contentType }),
  });

  async function newCollection(user: TestUser, body: object = { name: 'Notes' }): Promise<string> {
    const res = await as(user).post('/v1/collections', body).expect(201);
    return res.body.collection_id as string;
  }

  describe('POST /v1/collections', () => {
    it('creates an empty collection of the caller with the text search configuration of its language', async () => {
      const res = await as(t.owner)
        .post('/v1/collections', { name: '  Board minutes ', language: 'en-GB' })
        .expect(201);
      expect(res.body).toEqual({
        collection_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: '  Board minutes ',
        language: 'en-GB',
        text_search_config: 'english',
        owner: 'user',
        document_count: 0,
        created_at: expect.any(String),
      });
      const got = await as(t.owner).get(`/v1/collections/${res.body.collection_id}`).expect(200);
      expect(got.body).toEqual(res.body);
    });

    it('indexes with `simple` without a language or for one Postgres has no configuration for', async () => {
      expect((await as(t.owner).post('/v1/collections', { name: 'x' }).expect(201)).body.text_search_config).toBe(
        'simple',
      );
      const res = await as(t.owner).post('/v1/collections', { name: 'x', language: 'ja' }).expect(201);
      expect(res.body.text_search_config).toBe('simple');
    });

    it.each([
      [{}, 'name: '],
      [{ name: '' }, 'name: must be 1 to 200 characters'],
      [{ name: '   ' }, 'name: must not be blank'],
      [{ name: 'x'.repeat(201) }, 'name: must be 1 to 200 characters'],
      [{ name: 'a\u0000b' }, 'name: must not contain NUL characters'],
      [{ name: 'ok', language: 5 }, 'language: '],
    ])('refuses %j with 422 naming the field, and stores nothing', async (body, detail) => {
      const before = (await as(t.admin).get('/v1/collections').expect(200)).body.total;
      const res = await as(t.owner).post('/v1/collections', body).expect(422);
      expect(res.body.detail).toContain(detail);
      expect((await as(t.admin).get('/v1/collections').expect(200)).body.total).toBe(before);
    });

    it('needs a key', async () => {
      await request(t.app).post('/v1/collections').send({ name: 'x' }).expect(401);
      await request(t.app).get('/v1/collections').expect(401);
    });
  });

  describe('documents', () => {
    let id: string;
    beforeAll(async () => {
      id = await newCollection(t.owner, { name: 'Field notes', language: 'en' });
    });

    const upload = (body: Buffer, filename: string, contentType?: string) =>
      as(t.owner).upload(`/v1/collections/${id}/documents`, body, filename, contentType).expect(201);

    it('reads plain text, Markdown, HTML and PDF, and stores the text with the SHA-256 of its UTF-8 bytes', async () => {
      const txt = await upload(
        Buffer.from('Wind turbines\n\nThe turbines were running through the winter storms.'),
        'wind.txt',
      );
      const md = await upload(
        Buffer.from(
          '---\ntitle: Tidal power\n---\n# Ignored heading\n\nThe **tidal** barrage at [La Rance](https://example.org) opened in 1966.\n',
        ),
        'tidal.md',
      );
      const html = await upload(
        Buffer.from(
          '<!doctype html><html><head><title>Solar farms</title></head><body><nav>Home | About</nav><article><h1>Solar farms</h1>' +
            '<p>Solar farms in the desert convert sunlight into electricity for nearby cities, and their panels are cleaned by robots every night so that the dust of the day does not lower their yield.</p>' +
            '<p>Engineers measured the yield of each row of panels over three summers and found the cleaned rows produced a fifth more power than the rows left dusty.</p></article></body></html>',
        ),
        'solar.html',
      );
      const pdf = await upload(
        writePdf([{ content: textContent(['Geothermal plants in Iceland', 'heat the homes of Reykjavik.']) }]),
        'geothermal.pdf',
        'application/pdf',
      );
      expect(txt.body).toMatchObject({ content_type: 'text/plain', title: 'Wind turbines', filename: 'wind.txt' });
      expect(md.body).toMatchObject({ content_type: 'text/markdown', title: 'Tidal power' });
      expect(html.body).toMatchObject({ content_type: 'text/html', title: 'Solar farms' });
      expect(pdf.body).toMatchObject({ content_type: 'application/pdf' });
      for (const res of [txt, md, html, pdf]) {
        expect(res.body.url).toBe(`collection://${id}/${res.body.document_id}`);
        const doc = await as(t.owner).get(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(200);
        expect(doc.body.content_sha256).toBe(sha256(doc.body.content));
        expect(doc.body.content_sha256).toBe(res.body.content_sha256);
        expect(doc.body.content_length).toBe([...doc.body.content].length);
      }
      const text = async (res: request.Response) =>
        (await as(t.owner).get(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(200)).body
          .content as string;
      expect(await text(md)).toContain('The tidal barrage at La Rance opened in 1966.');
      expect(await text(md)).not.toContain('https://example.org');
      expect(await text(html)).toContain('cleaned by robots every night');
      expect(await text(html)).not.toContain('Home | About');
      expect(await text(pdf)).toContain('Geothermal plants in Iceland');

      const list = await as(t.owner).get(`/v1/collections/${id}/documents?limit=2`).expect(200);
      expect(list.body).toMatchObject({ collection_id: id, total: 4, limit: 2, offset: 0 });
      expect(list.body.items).toHaveLength(2);
      expect(list.body.items[0]).not.toHaveProperty('content');
      expect((await as(t.owner).get(`/v1/collections/${id}`).expect(200)).body.document_count).toBe(4);
    });

    it('reads a Markdown file of megabytes of unclosed brackets and tags whole (it held a pool thread past its time limit)', async () => {
      const hostile = `# Brackets\n\n${'['.repeat(1_500_000)}\n${'<'.repeat(1_500_000)}\n\nThe reader reached the end.\n`;
      const res = await upload(Buffer.from(hostile), 'brackets.md');
      expect(res.body).toMatchObject({ content_type: 'text/markdown', title: 'Brackets' });
      const doc = await as(t.owner).get(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(200);
      expect(doc.body.content).toContain('The reader reached the end.');
      await as(t.owner).del(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(200);
    });

    it('searches with the collection language (stemmed), ranked, with the passage that matched', async () => {
      const res = await as(t.owner)
        .get(`/v1/collections/${id}/search?q=${encodeURIComponent('turbine run')}`)
        .expect(200);
      expect(res.body.query).toBe('turbine run');
      expect(res.body.results).toHaveLength(1);
      expect(res.body.results[0]).toMatchObject({ title: 'Wind turbines', rank: 1, filename: 'wind.txt' });
      expect(res.body.results[0].snippet).toContain('running');
      expect(res.body.results[0].score).toBeGreaterThan(0);
      const none = await as(t.owner).get(`/v1/collections/${id}/search?q=volcano`).expect(200);
      expect(none.body).toMatchObject({ results: [], total: 0 });
      const phrase = await as(t.owner)
        .get(`/v1/collections/${id}/search?q=${encodeURIComponent('"desert" -wind')}`)
        .expect(200);
      expect(phrase.body.results.map((r: { title: string }) => r.title)).toEqual(['Solar farms']);
    });

    it.each([
      ['q is missing', '', 'q: '],
      ['q is blank', '?q=%20', 'q: must not be blank'],
      ['limit is 0', '?q=a&limit=0', 'limit: must be at least 1'],
      ['limit is 51', '?q=a&limit=51', 'limit: must be at most 50'],
    ])('refuses a search where %s with 422', async (_case, qs, detail) => {
      const res = await as(t.owner).get(`/v1/collections/${id}/search${qs}`).expect(422);
      expect(res.body.detail).toContain(detail);
    });

    it('takes search syntax no tsquery parser chokes on', async () => {
      for (const q of ['&&|!(', '"unclosed', 'a:*', "it's", '-']) {
        await as(t.owner)
          .get(`/v1/collections/${id}/search?q=${encodeURIComponent(q)}`)
          .expect(200);
      }
    });

    it('refuses a file over the crawler page cap with 413, and other types, empty and textless files with 422', async () => {
      const count = async () => (await as(t.owner).get(`/v1/collections/${id}`).expect(200)).body.document_count;
      const before = await count();
      const big = await as(t.owner)
        .upload(`/v1/collections/${id}/documents`, Buffer.alloc(5 * 1024 * 1024 + 1, 0x61), 'big.txt')
        .expect(413);
      expect(big.body.detail).toBe('file: the document is larger than 5242880 bytes');
      const exe = await as(t.owner)
        .upload(`/v1/collections/${id}/documents`, Buffer.from('MZ'), 'tool.exe')
        .expect(422);
      expect(exe.body.detail).toMatch(/^file: must be a PDF, HTML, Markdown or plain text file/);
      const empty = await as(t.owner)
        .upload(`/v1/collections/${id}/documents`, Buffer.alloc(0), 'empty.txt')
        .expect(422);
      expect(empty.body.detail).toBe('file: must not be empty');
      const blank = await as(t.owner)
        .upload(`/v1/collections/${id}/documents`, Buffer.from(' \n\n '), 'blank.txt')
        .expect(422);
      expect(blank.body.detail).toBe('file: holds no text that could be read');
      const broken = await as(t.owner)
        .upload(`/v1/collections/${id}/documents`, Buffer.from('%PDF-1.4 this is no pdf'), 'broken.pdf')
        .expect(422);
      expect(broken.body.detail).toMatch(/^file: cannot be read/);
      const json = await as(t.owner).post(`/v1/collections/${id}/documents`, { file: 'x' }).expect(422);
      expect(json.body.detail).toBe('file: must be sent as multipart/form-data');
      expect(await count()).toBe(before);
    });

    it('takes the type from the media type when the name has no known extension', async () => {
      const res = await upload(Buffer.from('Notes without an extension on hydrogen storage.'), 'notes', 'text/plain');
      expect(res.body.content_type).toBe('text/plain');
      await as(t.owner).del(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(200);
      await as(t.owner).get(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(404);
      await as(t.owner).del(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(404);
    });

    it('keeps a file name with control characters (RFC 5987 percent-escapes) as one line of text', async () => {
      const body = [
        '--b0undary',
        'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'kelp%00%07notes.txt',
        'Content-Type: text/plain',
        '',
        'Kelp forests grow fast.',
        '--b0undary--',
        '',
      ].join('\r\n');
      const res = await request(t.app)
        .post(`/v1/collections/${id}/documents`)
        .set('X-API-Key', t.owner.key)
        .set('Content-Type', 'multipart/form-data; boundary=b0undary')
        .send(body)
        .expect(201);
      expect(res.body.filename).toBe('kelp notes.txt');
      await as(t.owner).del(`/v1/collections/${id}/documents/${res.body.document_id}`).expect(200);
    });

    it('answers 404 for a malformed or unknown document id', async () => {
      for (const doc of [MALFORMED, UNKNOWN]) {
        const res = await as(t.owner).get(`/v1/collections/${id}/documents/${doc}`).expect(404);
        expect(res.body.detail).toBe(`Document ${doc} not found`);
      }
    });
  });

  describe('who may do what', () => {
    let mine: string;
    let docId: string;
    beforeAll(async () => {
      mine = await newCollection(t.owner, { name: 'Private notes' });
      docId = (
        await as(t.owner)
          .upload(`/v1/collections/${mine}/documents`, Buffer.from('Secret plans for the harbour bridge.'), 'plans.txt')
          .expect(201)
      ).body.document_id;
    });

    it('lists the caller its own collections, an administrator every one, paged', async () => {
      const own = await as(t.owner).get('/v1/collections?limit=100').expect(200);
      const other = await as(t.other).get('/v1/collections?limit=100').expect(200);
      const admin = await as(t.admin).get('/v1/collections?limit=100').expect(200);
      const ids = (res: request.Response) => res.body.items.map((c: { collection_id: string }) => c.collection_id);
      expect(ids(own)).toContain(mine);
      expect(ids(other)).not.toContain(mine);
      expect(ids(admin)).toContain(mine);
      expect(admin.body.total).toBeGreaterThanOrEqual(own.body.total);
      const page = await as(t.owner).get('/v1/collections?limit=1&offset=1').expect(200);
      expect(page.body).toMatchObject({ limit: 1, offset: 1, total: own.body.total });
      expect(ids(page)).toEqual([ids(own)[1]]);
      await as(t.owner).get('/v1/collections?limit=101').expect(422);
      await as(t.owner).get('/v1/collections?offset=-1').expect(422);
    });

    it("answers another user's collection as an unknown one (404) for every route, and changes nothing", async () => {
      const other = as(t.other);
      const notFound = `Collection ${mine} not found`;
      for (const res of [
        await other.get(`/v1/collections/${mine}`),
        await other.get(`/v1/collections/${mine}/documents`),
        await other.get(`/v1/collections/${mine}/documents/${docId}`),
        await other.get(`/v1/collections/${mine}/search?q=harbour`),
        await other.upload(`/v1/collections/${mine}/documents`, Buffer.from('Graffiti'), 'x.txt'),
        await other.del(`/v1/collections/${mine}/documents/${docId}`),
        await other.del(`/v1/collections/${mine}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.detail).toBe(notFound);
      }
      expect((await as(t.owner).get(`/v1/collections/${mine}`).expect(200)).body.document_count).toBe(1);
    });

    it('lets an administrator read, search, upload to and delete any collection', async () => {
      const admin = as(t.admin);
      await admin.get(`/v1/collections/${mine}/documents/${docId}`).expect(200);
      expect((await admin.get(`/v1/collections/${mine}/search?q=harbour`).expect(200)).body.total).toBe(1);
      const added = await admin
        .upload(`/v1/collections/${mine}/documents`, Buffer.from('Audit note.'), 'audit.txt')
        .expect(201);
      await admin.del(`/v1/collections/${mine}/documents/${added.body.document_id}`).expect(200);
      const victim = await newCollection(t.owner, { name: 'To delete' });
      expect((await admin.del(`/v1/collections/${victim}`).expect(200)).body).toEqual({
        collection_id: victim,
        deleted: true,
      });
      await as(t.owner).get(`/v1/collections/${victim}`).expect(404);
    });

    it('lets the owner delete its collection with its documents', async () => {
      const gone = await newCollection(t.owner, { name: 'Short-lived' });
      const doc = await as(t.owner)
        .upload(`/v1/collections/${gone}/documents`, Buffer.from('Ephemeral.'), 'e.txt')
        .expect(201);
      await as(t.owner).del(`/v1/collections/${gone}`).expect(200);
      await as(t.owner).get(`/v1/collections/${gone}`).expect(404);
      await as(t.owner).get(`/v1/collections/${gone}/documents/${doc.body.document_id}`).expect(404);
      const left = await t.db
        .selectFrom('collection_documents')
        .select('id')
        .where('collection_id', '=', gone)
        .execute();
      expect(left).toEqual([]);
      await as(t.owner).del(`/v1/collections/${gone}`).expect(404);
    });

    it('answers 404 for a malformed or unknown collection id', async () => {
      for (const id of [MALFORMED, UNKNOWN]) {
        const res = await as(t.owner).get(`/v1/collections/${id}`).expect(404);
        expect(res.body.detail).toBe(`Collection ${id} not found`);
        await as(t.owner).get(`/v1/collections/${id}/search?q=a`).expect(404);
        await as(t.owner).upload(`/v1/collections/${id}/documents`, Buffer.from('x'), 'x.txt').expect(404);
      }
    });
  });
});

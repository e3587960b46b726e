import request from 'supertest';
import { startFakeSite, type FakeSite } from '../../crawler/support';
import { FAKE_TRANSCRIPT, silentWav, startFakeAudio, type FakeAudio } from '../../fakes/fake-audio';
import { FAKE_DESCRIPTION, TINY_PNG, startFakeVision, type FakeVision } from '../../fakes/fake-vision';
import { buildMountedApp, type MountedTestApp } from './support';

describe('vision and audio routes', () => {
  let vision: FakeVision;
  let audio: FakeAudio;
  let site: FakeSite;
  let m: MountedTestApp;
  let bare: MountedTestApp;
  beforeAll(async () => {
    [vision, audio] = await Promise.all([startFakeVision(), startFakeAudio()]);
    site = await startFakeSite((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/chart.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG);
      if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      if (req.url === '/talk.wav') return void res.writeHead(200, { 'content-type': 'audio/wav' }).end(silentWav(1));
      res.writeHead(404).end();
    });
    m = await buildMountedApp('mountedmedia', {
      env: {
        CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
        VISION_BASE_URL: vision.baseUrl,
        VISION_MODEL: 'fake-vision',
        VISION_API_KEY: 'vision-secret-key',
        VISION_MAX_IMAGE_BYTES: '2048',
        AUDIO_BASE_URL: audio.baseUrl,
        AUDIO_MODEL: 'fake-whisper',
        AUDIO_MAX_BYTES: '65536',
        AUDIO_MAX_DURATION_SECONDS: '5',
      },
    });
    bare = await buildMountedApp('mountedmediabare');
  });
  afterAll(async () => {
    await Promise.all([m.close(), bare.close()]);
    await Promise.all([vision.close(), audio.close(), site.close()]);
  });

  describe('POST /vision/analyze', () => {
    const analyze = (body: unknown, key: string | null = m.t.owner.key, app = m.app) => {
      const r = request(app).post('/vision/analyze');
      return (key ? r.set('X-API-Key', key) : r).send(body as object);
    };

    it('describes a base64 image and keeps only claims grounded in the description', async () => {
      const res = await analyze({
        image_base64: TINY_PNG.toString('base64'),
        prompt: 'What does it show?',
        language: 'en',
      }).expect(200);
      expect(res.body).toMatchObject({
        description: FAKE_DESCRIPTION,
        model: 'fake-vision',
        media_type: 'image/png',
        bytes: TINY_PNG.length,
      });
      expect(res.body.claims).toHaveLength(1);
      expect(FAKE_DESCRIPTION).toContain(res.body.claims[0].evidence_span);
      const sent = vision.requests.at(-1)!;
      expect(sent.images).toEqual([`data:image/png;base64,${TINY_PNG.toString('base64')}`]);
      expect(sent.authorization).toBe('Bearer vision-secret-key');
      expect(sent.schemaName).toBe('image_analysis');
      expect(sent.text).toContain('What does it show?');
    });

    it('fetches an image URL through the crawler guard', async () => {
      await analyze({ image_url: `${site.origin}/chart.png` }).expect(200);
      const page = await analyze({ image_url: `${site.origin}/page.html` }).expect(422);
      expect(page.body.detail).toMatch(/^image_url: unsupported_type: /);
      const blocked = await analyze({ image_url: 'http://169.254.169.254/latest' }, bare.t.owner.key, bare.app).expect(
        503,
      );
      expect(blocked.body.detail).toContain('Vision is not configured');
    });

    it.each([
      ['neither image', {}, 422, 'image_url: give exactly one of image_url and image_base64'],
      [
        'both images',
        { image_url: 'https://example.org/a.png', image_base64: 'AAAA' },
        422,
        'image_url: give exactly one of image_url and image_base64',
      ],
      ['not base64', { image_base64: '###' }, 422, 'image_base64: must be base64-encoded image data'],
      [
        'not an image',
        { image_base64: Buffer.from('hello world!').toString('base64') },
        422,
        'image_base64: must be a PNG, JPEG, GIF or WebP image',
      ],
      [
        'an oversized image',
        { image_base64: Buffer.alloc(4096, 1).toString('base64') },
        413,
        'image_base64: the image is larger than 2048 bytes',
      ],
      ['a number', { image_base64: 5 }, 422, 'image_base64: must be a string'],
    ])('refuses %s', async (_label, body, status, detail) => {
      const before = vision.requests.length;
      await analyze(body).expect(status, { detail });
      expect(vision.requests.length).toBe(before);
    });

    it('answers 503 when the provider fails or is not configured, 401 without a key', async () => {
      vision.failWith = 400;
      try {
        const res = await analyze({ image_base64: TINY_PNG.toString('base64') }).expect(503);
        expect(res.body.detail).toBe('The vision provider gave no usable answer (http).');
      } finally {
        vision.failWith = null;
      }
      await analyze({ image_base64: TINY_PNG.toString('base64') }, bare.t.owner.key, bare.app).expect(503, {
        detail: 'Vision is not configured on this service (set VISION_MODEL, and VISION_BASE_URL or LLM_BASE_URL).',
      });
      await analyze({ image_base64: TINY_PNG.toString('base64') }, null).expect(401);
      await request(bare.app)
        .get('/providers')
        .expect(200)
        .expect((res) => {
          expect(res.body.vision).toEqual({ available: false });
          expect(res.body.audio).toEqual({ available: false });
        });
      await request(m.app)
        .get('/providers')
        .expect(200)
        .expect((res) => {
          expect(res.body.vision).toEqual({ available: true, model: 'fake-vision' });
        });
    });
  });

  describe('POST /audio/transcribe', () => {
    it('transcribes an uploaded file', async () => {
      const res = await request(m.app)
        .post('/audio/transcribe')
        .set('X-API-Key', m.t.owner.key)
        .field('language', 'de')
        .attach('file', silentWav(2), { filename: 'talk.wav', contentType: 'audio/wav' })
        .expect(200);
      expect(res.body).toEqual({
        text: FAKE_TRANSCRIPT,
        language: 'german',
        duration_seconds: 4.2,
        model: 'fake-whisper',
        bytes: silentWav(2).length,
      });
      expect(audio.requests.at(-1)).toMatchObject({
        model: 'fake-whisper',
        responseFormat: 'verbose_json',
        language: 'de',
        filename: 'talk.wav',
        fileBytes: silentWav(2).length,
      });
    });

    it('transcribes a linked file fetched through the crawler guard', async () => {
      const res = await request(m.app)
        .post('/audio/transcribe')
        .set('X-API-Key', m.t.owner.key)
        .send({ audio_url: `${site.origin}/talk.wav` })
        .expect(200);
      expect(res.body.text).toBe(FAKE_TRANSCRIPT);
      const page = await request(m.app)
        .post('/audio/transcribe')
        .set('X-API-Key', m.t.owner.key)
        .send({ audio_url: `${site.origin}/page.html` })
        .expect(422);
      expect(page.body.detail).toMatch(/^audio_url: unsupported_type: /);
    });

    it('enforces size and duration limits before calling the provider', async () => {
      const before = audio.requests.length;
      await request(m.app)
        .post('/audio/transcribe')
        .set('X-API-Key', m.t.owner.key)
        .attach('file', Buffer.alloc(70_000), { filename: 'big.mp3', contentType: 'audio/mpeg' })
        .expect(413, { detail: 'file: the audio is larger than 65536 bytes' });
      await request(m.app)
        .post('/audio/transcribe')
        .set('X-API-Key', m.t.owner.key)
        .attach('file', silentWav(6), { filename: 'long.wav', contentType: 'audio/wav' })
        .expect(422, { detail: 'file: the audio is longer than 5 seconds' });
      expect(audio.requests.length).toBe(before);
      // A format without a readable header: the provider's reported duration decides.
      audio.duration = 9;
      try {
        await request(m.app)
          .post('/audio/transcribe')
          .set('X-API-Key', m.t.owner.key)
          .attach('file', Buffer.alloc(1000, 1), { filename: 'talk.mp3', contentType: 'audio/mpeg' })
          .expect(422, { detail: 'file: the audio is longer than 5 seconds' });
      } finally {
        audio.duration = 4.2;
      }
    });

    it.each([
      ['no file', (r: request.Test) => r.field('language', 'de'), 422, 'file: Required'],
      ['a JSON body without audio_url', (r: request.Test) => r.send({}), 422, 'audio_url: Required'],
      ['a number as audio_url', (r: request.Test) => r.send({ audio_url: 5 }), 422, 'audio_url: must be a string'],
      [
        'two files',
        (r: request.Test) => r.attach('file', silentWav(1), 'a.wav').attach('file', silentWav(1), 'b.wav'),
        422,
        'file: only one audio file in the field `file` is read',
      ],
    ])('refuses %s', async (_label, build, status, detail) => {
      await build(request(m.app).post('/audio/transcribe').set('X-API-Key', m.t.owner.key)).expect(status, { detail });
    });

    // A multipart body busboy cannot read was a 500 (its plain Error reached the error handler).
    const part = (headers: string, content: string) => `--B\r\n${headers}\r\n\r\n${content}\r\n`;
    const filePart = part('Content-Disposition: form-data; name="file"; filename="a.wav"', 'RIFF....WAVE');
    it.each([
      [
        'multipart without a boundary',
        'multipart/form-data',
        filePart + '--B--\r\n',
        400,
        'Malformed multipart body: the Content-Type has no boundary.',
      ],
      ['an empty boundary (no part is found)', 'multipart/form-data; boundary=', filePart, 422, 'file: Required'],

      [
        'a body cut before its closing boundary',
        'multipart/form-data; boundary=B',
        filePart,
        400,
        'Malformed multipart body: it ends before its closing boundary.',
      ],
      [
        'a body cut inside the file',
        'multipart/form-data; boundary=B',
        '--B\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
        400,
        'Malformed multipart body: it ends before its closing boundary.',
      ],
      [
        'a broken part header',
        'multipart/form-data; boundary=B',
        `--B\r\n${'x'.repeat(20_000)}\r\n\r\nx\r\n--B--\r\n`,
        400,
        'Malformed multipart body: a part header cannot be parsed.',
      ],
      [
        'a prompt over 8 KiB',
        'multipart/form-data; boundary=B',
        part('Content-Disposition: form-data; name="prompt"', 'p'.repeat(9000)) + filePart + '--B--\r\n',
        422,
        'prompt: must be at most 8192 bytes',
      ],
      [
        'thirteen parts',
        'multipart/form-data; boundary=B',
        Array.from({ length: 13 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'x')).join('') +
          '--B--\r\n',
        400,
        'Too many parts in the multipart body (at most 12, 10 of them fields).',
      ],
    ])('answers a readable 4xx to %s, without calling the provider', async (_label, type, body, status, detail) => {
      const before = audio.requests.length;
      await request(m.app)
        .post('/audio/transcribe')
        .set('X-API-Key', m.t.owner.key)
        .set('Content-Type', type)
        .send(body)
        .expect(status, { detail });
      expect(audio.requests.length).toBe(before);
    });

    it('answers 503 without a provider (before reading the upload) and 401 without a key', async () => {
      await request(bare.app)
        .post('/audio/transcribe')
        .set('X-API-Key', bare.t.owner.key)
        .attach('file', silentWav(1), 'a.wav')
        .expect(503, {
          detail:
            'Audio transcription is not configured on this service (set AUDIO_MODEL, and AUDIO_BASE_URL or LLM_BASE_URL).',
        });
      await request(m.app).post('/audio/transcribe').send({ audio_url: 'https://example.org/a.mp3' }).expect(401);
      audio.failWith = 500;
      try {
        await request(m.app)
          .post('/audio/transcribe')
          .set('X-API-Key', m.t.owner.key)
          .attach('file', silentWav(1), 'a.wav')
          .expect(503, { detail: 'The audio provider answered HTTP 500.' });
      } finally {
        audio.failWith = null;
      }
    });
  });
});

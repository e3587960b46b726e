import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { buildTestApp, type TestApp } from './support';

// The API serves the built web page at `/` without a key (CONTRACT 5); a path that names no file of the
// page is the API's 404, and the page's folder is the only one it reads.
describe('the web page served by the API', () => {
  let root: string;
  let t: TestApp;
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'web-root-'));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Research</title><div id="root"></div>');
    writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1);');
    writeFileSync(path.join(root, '.secret'), 'hidden');
    t = await buildTestApp('web_page', { env: { WEB_ROOT: root } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the page at / without a key, with a policy that keeps it to its own files', async () => {
    const res = await request(t.app).get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<div id="root">');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the hashed scripts to keep', async () => {
    const res = await request(t.app).get('/assets/index-abc123.js').expect(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('answers a path that names no file of the page as the API does: 404 with a detail', async () => {
    const missing = await request(t.app).get('/assets/nothing.js').expect(404);
    expect(missing.body).toEqual({ detail: expect.any(String) });
    await request(t.app).get('/.secret').expect(404);
    await request(t.app).get('/..%2f..%2fpackage.json').expect(404);
    await request(t.app).get('/assets/..%2f..%2fetc%2fpasswd').expect(404);
  });

  it('serves no other method', async () => {
    await request(t.app).post('/').send({}).expect(404);
    await request(t.app).delete('/index.html').expect(404);
  });

  it('leaves the API as it was: its routes still need a key', async () => {
    await request(t.app).get('/v1/research').expect(401);
  });
});

describe('without a web page (WEB_ROOT set empty)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('web_page_off', { env: { WEB_ROOT: '' } });
  });
  afterAll(() => t.close());

  it('answers / with the 404 of any unknown path', async () => {
    const res = await request(t.app).get('/').expect(404);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });
});

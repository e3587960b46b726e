import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { openSse } from '../support/sse';
import { waitFor } from '../support/wait';
import { CLI_MAIN, STANDALONE_MAIN, client } from './support';

// `npm start` with zero configuration: embedded Postgres (PGlite) under DATA_DIR and in-process jobs.
describe('npm start on the embedded defaults', () => {
  let dir: string;
  let wiki: FakeWiki;
  let port: number;
  let env: Record<string, string>;
  let service: NodeProcess | undefined;

  const start = async () => {
    service = spawnNodeProcess('service', STANDALONE_MAIN, env);
    await waitForLogLine(service, 'service listening', 60_000);
    return service;
  };
  const stop = async () => {
    service!.child.kill('SIGTERM');
    return service!.exited;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-embedded-'));
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    port = await freePort();
    env = {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WIKIPEDIA_API_URL: wiki.apiUrl,
      RECONCILE_INTERVAL_MS: '500',
      // The test web lives on loopback, which the crawler refuses by default.
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    };
  });
  afterAll(async () => {
    await killAllProcesses();
    await wiki.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the initial administrator key to a 0600 file and logs only its path', async () => {
    await start();
    const file = path.join(dir, 'initial-admin-key');
    const key = fs.readFileSync(file, 'utf8').trim();
    expect(key).toMatch(/^rsk_/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const logs = JSON.stringify(service!.lines);
    expect(logs).toContain(file);
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(key.slice(21));
    // One plain line says what to open and where the key is (logged right after 'service listening').
    const welcome = `open http://127.0.0.1:${port}/ in a browser and sign in with the first administrator key, in ${file}`;
    await waitForLogLine(service!, welcome, 10_000);
    expect(service!.lines.filter((line) => String(line.message).startsWith('open http://'))).toHaveLength(1);
  });

  it('runs a research to completion and serves every result', async () => {
    const key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    const api = client(`http://127.0.0.1:${port}`, key);
    expect((await api('GET', '/health')).body).toMatchObject({ status: 'ok' });
    expect((await api('GET', '/ready')).body).toMatchObject({ status: 'ready', llm: 'disabled' });
    const created = await api<{ research_id: string; state: string }>('POST', '/v1/research', {
      query: 'How does photosynthesis convert light energy in plants?',
      depth: 'quick',
      language: 'en',
    });
    expect(created.status).toBe(200);
    expect(created.body.state).toBe('created');
    const id = created.body.research_id;
    const live = openSse(`http://127.0.0.1:${port}/v1/research/${id}/events`, { 'X-API-Key': key });
    const status = await waitFor(
      'the run to complete',
      async () => {
        const r = await api<{ state: string }>('GET', `/v1/research/${id}/status`);
        if (r.body.state === 'failed') throw new Error(JSON.stringify(r.body));
        return r.body.state === 'completed' ? r.body : undefined;
      },
      45_000,
      200,
    );
    expect(status).toMatchObject({ is_completed: true, is_running: false });
    const sources = (await api<{ sources: Array<{ id: string }> }>('GET', `/v1/research/${id}/sources`)).body.sources;
    const claims = (await api<{ claims: Array<{ id: string; source_id: string }> }>('GET', `/v1/research/${id}/claims`))
      .body.claims;
    const evidence = (await api<{ evidence: Array<{ claim_id: string }> }>('GET', `/v1/research/${id}/evidence`)).body
      .evidence;
    const report = (await api<{ findings: Array<{ source_ids: string[] }> }>('GET', `/v1/research/${id}/report`)).body;
    expect(sources.length).toBeGreaterThan(0);
    expect(claims.length).toBeGreaterThan(0);
    expect(evidence.map((e) => e.claim_id).sort()).toEqual(claims.map((c) => c.id).sort());
    const sourceIds = new Set(sources.map((s) => s.id));
    expect(report.findings.length).toBeGreaterThan(0);
    for (const f of report.findings) for (const s of f.source_ids) expect(sourceIds.has(s)).toBe(true);
    const metrics = (await api<string>('GET', '/metrics')).body;
    expect(metrics).toMatch(/^research_completed_total 1$/m);
    expect(metrics).toMatch(/^active_research_runs 0$/m);
    // The embedded database streams the run's progress too, and keeps it for a JSON read.
    await live.closed;
    expect(live.events.at(-1)?.data).toMatchObject({ type: 'end', state: 'completed' });
    const history = await api<{ items: unknown[] }>('GET', `/v1/research/${id}/events?limit=1000`);
    expect(history.body.items).toEqual(live.events.map((e) => e.data));
  });

  it('asks a follow-up of the finished run and finds both by a word of their questions or reports', async () => {
    const key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    const api = client(`http://127.0.0.1:${port}`, key);
    type List = { total: number; items: Array<{ research_id: string; parent_id: string | null }> };
    const parent = (await api<List>('GET', '/v1/research')).body.items[0]!.research_id;
    const parentSources = (
      await api<{ sources: Array<{ url: string; content_sha256: string }> }>('GET', `/v1/research/${parent}/sources`)
    ).body.sources;
    const created = await api<{ research_id: string }>('POST', '/v1/research', {
      query: 'Which pigment absorbs the light that plants use in greenhouses?',
      depth: 'quick',
      language: 'en',
      parent_id: parent,
    });
    expect(created.status).toBe(200);
    const id = created.body.research_id;
    await waitFor(
      'the follow-up to complete',
      async () => {
        const r = await api<{ state: string }>('GET', `/v1/research/${id}/status`);
        if (r.body.state === 'failed') throw new Error(JSON.stringify(r.body));
        return r.body.state === 'completed' ? r.body : undefined;
      },
      45_000,
      200,
    );
    // On the embedded database too, the follow-up holds its parent's sources with their hashes.
    const sources = (
      await api<{ sources: Array<{ url: string; content_sha256: string }> }>('GET', `/v1/research/${id}/sources`)
    ).body.sources;
    for (const s of parentSources)
      expect(sources).toContainEqual(expect.objectContaining({ url: s.url, content_sha256: s.content_sha256 }));
    const followUps = (await api<List>('GET', `/v1/research?parent_id=${parent}`)).body;
    expect(followUps.items.map((i) => i.research_id)).toEqual([id]);
    const found = (await api<List>('GET', '/v1/research?q=greenhouses')).body;
    expect(found.items.map((i) => i.research_id)).toEqual([id]);
    const both = (await api<List>('GET', '/v1/research?q=photosynthesis')).body;
    expect(both.items.map((i) => i.research_id).sort()).toEqual([id, parent].sort());
    // The word is in the parent's question: it ranks first.
    expect(both.items[0]!.research_id).toBe(parent);
  });

  it('refuses the CLI while the service runs, with a clear message', () => {
    const r = spawnSync(process.execPath, [CLI_MAIN, 'users', 'list'], {
      env: { PATH: process.env.PATH, DATA_DIR: dir },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('in use by a running service');
  });

  it('stops on SIGTERM with exit 0, and keeps its data across a restart', async () => {
    const key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    const api = client(`http://127.0.0.1:${port}`, key);
    const before = (await api<{ total: number; items: Array<{ research_id: string }> }>('GET', '/v1/research')).body;
    expect(await stop()).toEqual({ code: 0, signal: null });
    const cli = spawnSync(process.execPath, [CLI_MAIN, 'keys', 'list', '--json'], {
      env: { PATH: process.env.PATH, DATA_DIR: dir },
      encoding: 'utf8',
    });
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout)).toHaveLength(1);
    await start();
    const after = (await api<{ total: number; items: Array<{ research_id: string }> }>('GET', '/v1/research')).body;
    expect(after).toEqual(before);
    expect(fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim()).toBe(key);
    expect(await stop()).toEqual({ code: 0, signal: null });
  });
});

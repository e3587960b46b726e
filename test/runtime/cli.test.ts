import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { authenticateApiKey } from '@research/auth';
import { findUserByUsername, listApiKeys } from '@research/database';
import { acquireEmbeddedLock, runCli } from '@research/runtime';
import { createTestDatabase, type TestDatabase } from '../support/database';

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
  return { code, out, err, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('research-admin CLI on Postgres', () => {
  let t: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    t = await createTestDatabase('cli');
    env = { DATABASE_URL: t.url, LOG_LEVEL: 'error' };
  });
  afterAll(() => t.drop());

  it('creates a key with --json and the key authenticates', async () => {
    const r = await cli(['keys', 'create', 'alice', '--name', 'laptop', '--json'], env);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout) as { id: string; username: string; key: string; expires_at: string | null };
    expect(Object.keys(created).sort()).toEqual(['expires_at', 'id', 'key', 'username']);
    expect(created.username).toBe('alice');
    expect(created.expires_at).toBeNull();
    expect(created.key).toMatch(/^rsk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const principal = await authenticateApiKey(t.db, created.key);
    expect(principal).toMatchObject({ username: 'alice', isAdmin: false, keyId: created.id });
  });

  it('stores only a salted hash, never the key', async () => {
    const r = await cli(['keys', 'create', 'bob', '--json'], env);
    const { key, id } = JSON.parse(r.stdout) as { key: string; id: string };
    const [row] = (await listApiKeys(t.db, 'bob')).filter((k) => k.id === id);
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(key.slice('rsk_'.length + 17));
    expect(row!.salt).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sets an expiry with --expires-in-days', async () => {
    const r = await cli(['keys', 'create', 'carol', '--expires-in-days', '2', '--json'], env);
    const { expires_at } = JSON.parse(r.stdout) as { expires_at: string };
    const days = (new Date(expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(1.99);
    expect(days).toBeLessThan(2.01);
  });

  it('lists keys without the key or its hash', async () => {
    const r = await cli(['keys', 'list', '--user', 'alice', '--json'], env);
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ username: 'alice', name: 'laptop', revoked: false });
    expect(Object.keys(items[0]!)).not.toEqual(expect.arrayContaining(['key', 'key_hash', 'salt']));
    const text = await cli(['keys', 'list'], env);
    expect(text.stdout).toContain('alice');
    expect(text.stdout).not.toMatch(/rsk_/);
  });

  it('revokes a key so the next authentication fails', async () => {
    const r = await cli(['keys', 'create', 'dave', '--json'], env);
    const { key, id } = JSON.parse(r.stdout) as { key: string; id: string };
    await expect(authenticateApiKey(t.db, key)).resolves.toBeDefined();
    const revoked = await cli(['keys', 'revoke', id], env);
    expect(revoked.code).toBe(0);
    await expect(authenticateApiKey(t.db, key)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('grants and revokes the administrator role', async () => {
    expect((await cli(['grant-admin', 'alice'], env)).code).toBe(0);
    expect((await findUserByUsername(t.db, 'alice'))?.is_admin).toBe(true);
    const users = JSON.parse((await cli(['users', 'list', '--json'], env)).stdout) as Array<{
      username: string;
      role: string;
    }>;
    expect(users.find((u) => u.username === 'alice')?.role).toBe('admin');
    expect((await cli(['revoke-admin', 'alice'], env)).code).toBe(0);
    expect((await findUserByUsername(t.db, 'alice'))?.is_admin).toBe(false);
  });

  it('exits 1 with a message on stderr for an unknown user or key', async () => {
    const r = await cli(['grant-admin', 'nobody'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("No user named 'nobody'");
    const k = await cli(['keys', 'revoke', 'ffffffffffffffff'], env);
    expect(k.code).toBe(1);
  });

  it('exits 2 on a usage error', async () => {
    expect((await cli([], env)).code).toBe(2);
    expect((await cli(['keys'], env)).code).toBe(2);
    expect((await cli(['keys', 'create'], env)).code).toBe(2);
    expect((await cli(['frobnicate'], env)).code).toBe(2);
    expect((await cli(['keys', 'create', 'bad name!'], env)).code).toBe(2);
    expect((await cli(['keys', 'create', 'eve', '--expires-in-days', '-3'], env)).code).toBe(2);
  });

  it('exits 1 when the configuration is invalid', async () => {
    const r = await cli(['users', 'list'], { DATABASE_URL: 'mysql://nope' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('DATABASE_URL');
  });
});

// PGlite loads its WebAssembly through dynamic import(), which Jest's module sandbox refuses, and the
// embedded mode is about processes anyway: these tests run the built CLI as a real process.
const CLI = path.resolve(__dirname, '../../apps/api/dist/cli.js');

function cliProcess(args: string[], env: NodeJS.ProcessEnv): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'error', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

describe('research-admin CLI on the embedded database', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-cli-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the database on first use and works while the service is stopped', () => {
    const env = { DATA_DIR: dir };
    const r = cliProcess(['keys', 'create', 'frank', '--json'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ username: 'frank' });
    expect(cliProcess(['grant-admin', 'frank'], env).code).toBe(0);
    const users = JSON.parse(cliProcess(['users', 'list', '--json'], env).stdout) as Array<{
      username: string;
      role: string;
    }>;
    expect(users).toEqual([expect.objectContaining({ username: 'frank', role: 'admin' })]);
  });

  it('refuses with a clear message while a running service holds the database', () => {
    // This test process stands in for the running service: a live pid holds the lock.
    const holder = acquireEmbeddedLock(dir, 'all');
    try {
      const r = cliProcess(['users', 'list'], { DATA_DIR: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('in use by a running service');
      expect(r.stderr).toContain(`pid ${process.pid}`);
    } finally {
      holder.release();
    }
    expect(cliProcess(['users', 'list'], { DATA_DIR: dir }).code).toBe(0);
  });

  it('takes over a lock left by a dead process', () => {
    fs.writeFileSync(path.join(dir, 'service.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, role: 'all' }));
    const r = cliProcess(['users', 'list', '--json'], { DATA_DIR: dir });
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(dir, 'service.lock'))).toBe(false);
  });

  it('exits 2 on a usage error', () => {
    const r = cliProcess(['keys', 'create'], { DATA_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toBe('');
  });
});

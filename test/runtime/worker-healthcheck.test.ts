import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');

/** The instructions of a Dockerfile, continuation lines joined and comments dropped. */
function dockerfileInstructions(file: string): Array<{ keyword: string; args: string }> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const lines = text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n');
  return lines
    .map((l) => /^\s*([A-Z]+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ keyword: m[1]!, args: m[2]!.trim() }));
}

/** The environment and healthcheck command of the final stage of Dockerfile.worker. */
function workerImage(): { env: Record<string, string>; healthcheck: string[] | null; workdir: string | null } {
  const instructions = dockerfileInstructions('Dockerfile.worker');
  const finalStage = instructions.slice(instructions.map((i) => i.keyword).lastIndexOf('FROM'));
  const env: Record<string, string> = {};
  let healthcheck: string[] | null = null;
  let workdir: string | null = null;
  for (const { keyword, args } of finalStage) {
    if (keyword === 'ENV') for (const [, k, v] of args.matchAll(/(\w+)=(\S+)/g)) env[k!] = v!;
    if (keyword === 'WORKDIR') workdir = args;
    if (keyword === 'HEALTHCHECK') {
      const cmd = /\bCMD\s+(\[.*\])\s*$/.exec(args);
      healthcheck = cmd ? (JSON.parse(cmd[1]!) as string[]) : null;
    }
  }
  return { env, healthcheck, workdir };
}

interface ComposeService {
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
}

function composeWorker(): ComposeService {
  const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  return compose.services.worker!;
}

describe('the worker container healthcheck (docker-compose.yml, Dockerfile.worker)', () => {
  const image = workerImage();
  const worker = composeWorker();

  it('runs the heartbeat check of the worker image, not a check that cannot fail', () => {
    expect(image.healthcheck).toEqual(['node', 'apps/worker/dist/healthcheck.js']);
    expect(worker.healthcheck?.disable).not.toBe(true);
    // Compose may restate the image's check; it must not replace it with another.
    const test = worker.healthcheck?.test;
    if (test !== undefined) expect(test).toEqual(['CMD', ...image.healthcheck!]);
  });

  it('gives the worker and its check the same heartbeat file', () => {
    const fromImage = image.env.WORKER_HEARTBEAT_FILE;
    const fromCompose = worker.environment?.WORKER_HEARTBEAT_FILE;
    const file = fromCompose ?? fromImage;
    expect(file).toMatch(/^\/\S+$/);
    if (fromImage && fromCompose) expect(fromCompose).toBe(fromImage);
  });

  it('is healthy on a fresh heartbeat and unhealthy on a stale or missing one', () => {
    const [command, ...args] = image.healthcheck!;
    expect(command).toBe('node');
    expect(image.workdir).toBe('/app');
    // The image's /app holds the built apps/ and packages/ as the repository root does.
    const check = (env: Record<string, string>) =>
      spawnSync(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } }).status;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heartbeat-'));
    try {
      const file = path.join(dir, 'worker-heartbeat');
      fs.writeFileSync(file, String(Date.now()));
      expect(check({ WORKER_HEARTBEAT_FILE: file })).toBe(0);
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(file, old, old);
      expect(check({ WORKER_HEARTBEAT_FILE: file })).toBe(1);
      expect(check({ WORKER_HEARTBEAT_FILE: path.join(dir, 'missing') })).toBe(1);
      expect(check({})).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

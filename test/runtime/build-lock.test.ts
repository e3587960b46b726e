import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BUILD = path.resolve(__dirname, '../../scripts/build.js');

/** A build step that writes when it starts and ends into `log` and takes `ms` in between. */
function step(log: string, ms: number): string[] {
  const script =
    `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(log)}, 'start ' + Date.now() + '\\n');` +
    `setTimeout(() => fs.appendFileSync(${JSON.stringify(log)}, 'end ' + Date.now() + '\\n'), ${ms});`;
  return [process.execPath, '-e', script];
}

/** Runs scripts/build.js with `steps` and the lock at `lock`; resolves with its exit code. */
function build(lock: string, steps: string[][]): { done: Promise<number | null>; pid: number } {
  const child = spawn(process.execPath, [BUILD], {
    env: { ...process.env, BUILD_LOCK: lock, BUILD_STEPS: JSON.stringify(steps) },
    stdio: 'ignore',
  });
  return { done: new Promise((resolve) => child.on('exit', (code) => resolve(code))), pid: child.pid! };
}

// `npm run start:api` and two `npm run start:worker` at once each build first; their builds must not overlap.
describe('npm run build, started several times at once', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-lock-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs three builds one after another, all succeeding, and leaves no lock', async () => {
    const lock = path.join(dir, '.build.lock');
    const log = path.join(dir, 'log');
    const codes = await Promise.all([0, 1, 2].map(() => build(lock, [step(log, 300)]).done));
    expect(codes).toEqual([0, 0, 0]);
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
    // Each start is followed by its own end before the next start.
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over the lock of a build that was killed, and lets go of its own when it is stopped', async () => {
    const lock = path.join(dir, '.build.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(lock, dead.stdout);
    expect(await build(lock, [step(path.join(dir, 'log'), 10)]).done).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);

    const stopped = build(lock, [step(path.join(dir, 'log'), 60_000)]);
    for (let i = 0; i < 100 && !fs.existsSync(lock); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(stopped.pid));
    process.kill(stopped.pid, 'SIGTERM');
    expect(await stopped.done).not.toBe(0);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('is what the images build with: each Dockerfile copies the script before it runs npm run build', () => {
    for (const file of ['Dockerfile.api', 'Dockerfile.worker']) {
      const text = fs.readFileSync(path.resolve(__dirname, '../..', file), 'utf8');
      const copied = text.indexOf('COPY scripts/build.js ./scripts/build.js');
      expect(copied).toBeGreaterThan(0);
      expect(copied).toBeLessThan(text.indexOf('npm run build'));
    }
  });
});

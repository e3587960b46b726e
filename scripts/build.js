// npm run build: the TypeScript projects (tsc -b, incremental), then the web page (Vite). One build at a time per
// checkout: `npm run start:api` and `npm run start:worker` each build first, and two builds at once collided (Vite's
// build of apps/web/dist, tsc writing the same outputs). A build takes the lock file .build.lock (O_EXCL, holding
// its pid), waits while another live process holds it, takes over one a dead process left, and lets it go when it
// ends, however it ends. BUILD_STEPS (JSON, an array of [command, ...args]) and BUILD_LOCK replace the steps and the
// lock's path, for its test (test/runtime/build-lock.test.ts).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const LOCK = process.env.BUILD_LOCK ?? path.join(ROOT, '.build.lock');
const STEPS = process.env.BUILD_STEPS
  ? JSON.parse(process.env.BUILD_STEPS)
  : [
      [process.execPath, path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
      ['npm', 'run', 'build', '--silent', '--workspace', 'apps/web'],
    ];
const POLL_MS = 100;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The pid the lock file holds, or null (no file, or one being written). */
function holderOf() {
  try {
    const pid = Number(fs.readFileSync(LOCK, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock, waiting for a live holder; a lock whose holder is gone (killed mid-build) is taken over. */
function acquire() {
  let told = false;
  let unreadable = 0;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = holderOf();
    if (holder !== null && alive(holder)) {
      if (!told) console.error(`build: waiting for the build of process ${holder} to end (${LOCK})`);
      told = true;
    } else if (holder !== null || ++unreadable > 20) {
      // Its holder is gone (or it stayed unreadable for 2 s): taken over, unless another took it meanwhile.
      if (holderOf() === holder) fs.rmSync(LOCK, { force: true });
      unreadable = 0;
      continue;
    }
    sleep(POLL_MS);
  }
}

function release() {
  try {
    if (fs.readFileSync(LOCK, 'utf8').trim() === String(process.pid)) fs.rmSync(LOCK, { force: true });
  } catch {
    // Not held.
  }
}

/** Runs one step, resolving with its exit code; `running` holds it meanwhile, for a signal to stop it. */
function run([command, ...args], running) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    running.child = child;
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main() {
  acquire();
  process.on('exit', release);
  const running = { child: null };
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ]) {
    process.on(signal, () => {
      running.child?.kill(signal);
      release();
      process.exit(128 + number);
    });
  }
  for (const step of STEPS) {
    const code = await run(step, running);
    if (code !== 0) process.exit(code);
  }
}

void main();

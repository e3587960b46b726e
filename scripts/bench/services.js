// The real services a bench runs against: a throwaway Postgres database, the Redis, and the API (or the bare
// Express baseline) in a child process of its own. One place for what bench-api, bench-hostile and
// bench-pipeline share.
'use strict';
const { fork } = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');
const pg = require('pg');

const ADMIN_URL =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Runs one statement on its own connection to `url`. */
async function sql(url, text, params) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** A new, empty database `rs_<label>_<random>` on the bench's server; `drop()` removes it. */
async function createBenchDatabase(label) {
  const name = `rs_${label}_${crypto.randomBytes(4).toString('hex')}`;
  await sql(ADMIN_URL, `create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => sql(ADMIN_URL, `drop database if exists ${name} with (force)`),
  };
}

/** A Redis key prefix of its own, so a bench never meets another deployment's queue. */
function benchRedisPrefix() {
  return `rs-bench-${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * Starts scripts/bench/<script> as a child process with `env` added; resolves once it reports its port over
 * IPC. `stdout` is 'ignore' or 'inherit'.
 */
function serveScript(script, env, { stdout = 'ignore' } = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, script), [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', stdout, 'inherit', 'ipc'],
    });
    const onExit = (code) => reject(new Error(`${script} exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve({ child, port: m.port, origin: `http://127.0.0.1:${m.port}` });
    });
  });
}

/** Kills a served child and waits for it to be gone (at once when it already is). */
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/** Creates a user `username` and an API key for it with the product's CLI; resolves with `{ key, … }` as printed. */
async function createBenchKey(username, env) {
  const { runCli } = require('@research/runtime');
  let created;
  await runCli(
    ['keys', 'create', username, '--json'],
    { out: (l) => (created = JSON.parse(l)), err: console.error },
    { ...process.env, ...env },
  );
  return created;
}

module.exports = {
  ADMIN_URL,
  REDIS_URL,
  sql,
  createBenchDatabase,
  createBenchKey,
  benchRedisPrefix,
  serveScript,
  stopChild,
};

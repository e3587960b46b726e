import { sql } from 'kysely';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { MAX_CLAIMS_PER_RUN, MAX_CLAIMS_PER_SOURCE } from '@research/core';
import { insertClaims, insertSources, refreshRunCounts, type Database } from '@research/database';
import { MAX_COMPARED_PAIRS } from '@research/engine';
import { insertTestRun } from '../support';
import { buildMountedApp, type MountedTestApp } from './support';

const PLAN = {
  query: 'Wie stark stieg die Produktivität im Homeoffice?',
  language: 'de',
  query_categories: ['quantitative'],
  sub_questions: ['Wie stark stieg die Produktivität im Homeoffice?'],
  search_queries: [{ query: 'Produktivität Homeoffice', dimension: 'evidence' }],
  counter_evidence_queries: [],
  required_fields: ['Produktivität'],
  search_dimensions: ['evidence'],
  time_sensitivity: 'none',
  confidence: 0.6,
};

/** Five checkable sentences about the plan's question: the extractive engine takes each as a claim. */
const FIVE_CLAIMS = [
  'Eine Studie von 2019 ergab, dass die Produktivität im Homeoffice um 3 Prozent stieg.',
  'Eine Umfrage von 2020 ergab, dass die Produktivität im Homeoffice um 5 Prozent stieg.',
  'Ein Bericht von 2021 zeigte, dass die Produktivität im Homeoffice um 7 Prozent stieg.',
  'Eine Analyse von 2022 fand, dass die Produktivität im Homeoffice um 9 Prozent stieg.',
  'Eine Erhebung von 2023 ergab, dass die Produktivität im Homeoffice um 11 Prozent stieg.',
].join(' ');

/**
 * Stores `count` claims in sources of `perSource` claims each, after whatever the run holds. The text is
 * the hostile input: every claim states the same quantity with another number, so every pair of
 * sources disagrees (2,000 such claims were 2.0 million relations and 33 s of comparison before).
 */
async function insertClaimsOfRun(
  db: Database,
  runId: string,
  count: number,
  options: { perSource?: number; firstSource?: number; sourceId?: string } = {},
): Promise<void> {
  const perSource = options.perSource ?? 8;
  const first = options.firstSource ?? 0;
  const sources = options.sourceId ? [] : Array.from({ length: Math.ceil(count / perSource) }, (_, k) => first + k);
  const text = (i: number) => `Global mean sea level rose by ${i + 1} centimetres between 1901 and 2018.`;
  await insertSources(
    db,
    sources.map((k) => ({
      id: `${runId}-src-${k}`,
      run_id: runId,
      round: 1,
      position: k,
      url: `https://site${k}.example/sea-level`,
      title: `Site ${k}`,
      domain: `site${k}.example`,
      source_type: 'news',
      retrieved_at: new Date(Date.UTC(2026, 0, 1)),
      content: Array.from({ length: perSource }, (_, j) => text((k - first) * perSource + j)).join(' '),
      published_at: null,
      language: 'en',
    })),
  );
  const start = first * perSource;
  await insertClaims(
    db,
    Array.from({ length: count }, (_, i) => ({
      id: `${runId}-claim-${start + i}`,
      run_id: runId,
      source_id: options.sourceId ?? `${runId}-src-${first + Math.floor(i / perSource)}`,
      round: 1,
      position: start + i,
      claim_text: text(i),
      evidence_span: text(i),
      claim_type: 'fact',
      confidence: 0.7,
    })),
  );
  await refreshRunCounts(db, runId);
}

/** CPU time this process has used, in ms (all its threads). */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/stat`;
/**
 * CPU time of the thread running the event loop, in ms: Linux counts it per thread in clock ticks of
 * 10 ms (CLK_TCK 100); V8's garbage collector and compiler threads are not in it. Elsewhere, the whole
 * process's time (an upper bound).
 */
function loopThreadCpuMs(): number {
  if (!fs.existsSync(MAIN_THREAD_STAT)) return processCpuMs();
  // Fields after the command name in parentheses: state is the 3rd field, utime the 14th, stime the 15th.
  const fields = fs.readFileSync(MAIN_THREAD_STAT, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Asks GET /health over a real socket every 10 ms until stopped, keeping the slowest answer, and
 * watches the event loop with a 2 ms timer: a gap between two ticks is a stretch the loop did not turn.
 * The work in a gap is at most its wall time and at most the CPU time the loop's thread used meanwhile;
 * the block is the smaller of the two. A machine short of CPU (six test suites on two cores) makes gaps
 * long in wall time with the thread idle; a handler holding the loop makes them long in both.
 */
function probeHealth(baseUrl: string) {
  let stopped = false;
  let slowest = 0;
  let answers = 0;
  let longestBlock = 0;
  let lastTick = performance.now();
  let lastCpu = loopThreadCpuMs();
  const watch = setInterval(() => {
    const now = performance.now();
    const cpu = loopThreadCpuMs();
    longestBlock = Math.max(longestBlock, Math.min(now - lastTick, cpu - lastCpu));
    lastTick = now;
    lastCpu = cpu;
  }, 2);
  const cpuBefore = loopThreadCpuMs();
  const probing = (async () => {
    while (!stopped) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
      slowest = Math.max(slowest, performance.now() - started);
      answers++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return async () => {
    stopped = true;
    await probing;
    clearInterval(watch);
    return {
      answers,
      slowestHealthMs: Math.round(slowest),
      longestBlockMs: Math.round(longestBlock),
      cpuMs: Math.round(loopThreadCpuMs() - cpuBefore),
    };
  };
}

/**
 * The event loop never stood still for 100 ms while /health was asked, no answer waited a second however
 * busy the machine, and the request took bounded work (comparing all pairs took 45 s of CPU).
 */
function expectResponsive(res: { answers: number; slowestHealthMs: number; longestBlockMs: number; cpuMs: number }) {
  expect(res.answers).toBeGreaterThan(3);
  expect(res.longestBlockMs).toBeLessThan(100);
  expect(res.slowestHealthMs).toBeLessThan(1000);
  expect(res.cpuMs).toBeLessThan(10_000);
}

describe('claim limits and large runs (/research/{run_id}/…)', () => {
  let m: MountedTestApp;
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    m = await buildMountedApp('claimlimits');
    server = m.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await m.close();
  });

  const as = (key: string) => ({
    get: (path: string) => request(m.app).get(path).set('X-API-Key', key),
    post: (path: string, body?: object) => {
      const r = request(m.app).post(path).set('X-API-Key', key);
      return body === undefined ? r : r.send(body);
    },
  });

  /** POSTs to a run route over the real socket while /health is probed; the answer and the figures. */
  async function timedPost(path: string) {
    const stop = probeHealth(baseUrl);
    const started = performance.now();
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'X-API-Key': m.t.owner.key } });
    const body = (await res.json()) as Record<string, unknown>;
    const ms = Math.round(performance.now() - started);
    return { status: res.status, body, ms, ...(await stop()) };
  }

  describe(`a run holding ${MAX_CLAIMS_PER_RUN} claims whose sources all disagree`, () => {
    let runId: string;
    beforeAll(async () => {
      // The question the claims are about: the report lists disagreements only between claims about it.
      runId = await insertTestRun(m.t.db, {
        owner: m.t.owner.id,
        state: 'completed',
        plan: PLAN,
        query: 'By how much did global mean sea level rise between 1901 and 2018?',
      });
      await insertClaimsOfRun(m.t.db, runId, MAX_CLAIMS_PER_RUN);
    });

    it('clusters them with bounded work and relations while /health keeps answering', async () => {
      const res = await timedPost(`/research/${runId}/cluster-claims`);
      console.log(`cluster-claims, ${MAX_CLAIMS_PER_RUN} claims: ${JSON.stringify({ ...res, body: undefined })}`);
      expect(res.status).toBe(200);
      expect(res.body.relations).toBeGreaterThan(MAX_CLAIMS_PER_RUN);
      // Every pair of sources disagrees: comparing all pairs stored about 2.0 million relations.
      expect(res.body.relations).toBeLessThanOrEqual(MAX_COMPARED_PAIRS);
      const clustered = (res.body.clusters as Array<{ claim_ids: string[] }>).flatMap((c) => c.claim_ids);
      expect(clustered).toHaveLength(MAX_CLAIMS_PER_RUN);
      expectResponsive(res);
    }, 120_000);

    it('pages the stored relations (limit 1..100, default 100; total counts them all)', async () => {
      const clusters = await as(m.t.other.key).get(`/research/${runId}/clusters`).expect(200);
      expect(clusters.body.total).toBeGreaterThan(0);
      const first = await as(m.t.other.key).get(`/research/${runId}/claim-relations`).expect(200);
      expect(first.body).toMatchObject({ research_id: runId, limit: 100, offset: 0 });
      expect(first.body.relations).toHaveLength(100);
      expect(first.body.total).toBeGreaterThan(MAX_CLAIMS_PER_RUN);
      expect(first.body.total).toBeLessThanOrEqual(MAX_COMPARED_PAIRS);
      const page = await as(m.t.other.key).get(`/research/${runId}/claim-relations?limit=5&offset=10`).expect(200);
      expect(page.body).toMatchObject({ total: first.body.total, limit: 5, offset: 10 });
      expect(page.body.relations).toEqual(first.body.relations.slice(10, 15));
      const last = await as(m.t.other.key)
        .get(`/research/${runId}/claim-relations?offset=${first.body.total - 3}`)
        .expect(200);
      expect(last.body.relations).toHaveLength(3);
      const beyond = await as(m.t.other.key)
        .get(`/research/${runId}/claim-relations?offset=${first.body.total}`)
        .expect(200);
      expect(beyond.body).toMatchObject({ relations: [], total: first.body.total });
    });

    it.each([
      ['limit=0', 'limit: must be at least 1'],
      ['limit=101', 'limit: must be at most 100'],
      ['limit=abc', 'limit: must be an integer'],
      ['offset=-1', 'offset: must be an integer'],
      ['limit=1&limit=2', 'limit: must be a single integer'],
    ])('refuses claim-relations?%s with 422', async (query, detail) => {
      await as(m.t.other.key).get(`/research/${runId}/claim-relations?${query}`).expect(422, { detail });
    });

    it('scores the evidence with bounded work while /health keeps answering', async () => {
      const res = await timedPost(`/research/${runId}/evidence`);
      console.log(`evidence, ${MAX_CLAIMS_PER_RUN} claims: ${JSON.stringify({ ...res, body: undefined })}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(MAX_CLAIMS_PER_RUN);
      expectResponsive(res);
      // A graph this large is not stored (reading it back would hold the event loop): its readers build it again.
      const { rows } = await sql`select run_id from evidence_graphs where run_id = ${runId}`.execute(m.t.db);
      expect(rows).toEqual([]);
    }, 120_000);

    it('writes the report with bounded work while /health keeps answering', async () => {
      const res = await timedPost(`/research/${runId}/synthesis`);
      console.log(`synthesis, ${MAX_CLAIMS_PER_RUN} claims: ${JSON.stringify({ ...res, body: undefined })}`);
      expect(res.status).toBe(200);
      expect((res.body.disagreements as unknown[]).length).toBeGreaterThan(0);
      expectResponsive(res);
    }, 120_000);
  });

  describe('POST /research/:run_id/claims keeps to the claim limits', () => {
    it(`stores what fits under ${MAX_CLAIMS_PER_RUN} claims per run, counts the rest, then refuses with 409`, async () => {
      const runId = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'completed', plan: PLAN });
      await insertClaimsOfRun(m.t.db, runId, MAX_CLAIMS_PER_RUN - 2);
      const res = await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { text: FIVE_CLAIMS, url: 'https://studie.example.org/homeoffice' })
        .expect(200);
      expect(res.body).toMatchObject({ created: 2, over_limit_dropped: 3, source_created: true });
      // The first claims of the text are the ones kept.
      expect(res.body.claims.map((c: { evidence_span: string }) => c.evidence_span)).toEqual([
        expect.stringContaining('2019'),
        expect.stringContaining('2020'),
      ]);
      const status = await as(m.t.owner.key).get(`/v1/research/${runId}`).expect(200);
      expect(status.body.claim_count).toBe(MAX_CLAIMS_PER_RUN);

      const sources = status.body.source_count;
      const full = `Research run ${runId} already holds its limit of ${MAX_CLAIMS_PER_RUN} claims; no claims were added.`;
      await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { text: FIVE_CLAIMS, url: 'https://andere.example.org/homeoffice' })
        .expect(409, { detail: full });
      await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { source_id: res.body.source_id })
        .expect(409, { detail: full });
      const after = await as(m.t.owner.key).get(`/v1/research/${runId}`).expect(200);
      expect(after.body).toMatchObject({ claim_count: MAX_CLAIMS_PER_RUN, source_count: sources });
    });

    it(`stores at most ${MAX_CLAIMS_PER_SOURCE} claims per source, however often the source is read`, async () => {
      const runId = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'completed', plan: PLAN });
      const first = await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { text: FIVE_CLAIMS, url: 'https://studie.example.org/homeoffice' })
        .expect(200);
      expect(first.body).toMatchObject({ created: 5, over_limit_dropped: 0 });
      const sourceId = first.body.source_id as string;
      // Claims found in earlier readings (as an LLM may find other claims each time) fill the source up.
      await m.t.db.deleteFrom('claims').where('run_id', '=', runId).execute();
      await insertClaimsOfRun(m.t.db, runId, MAX_CLAIMS_PER_SOURCE - 2, { sourceId });

      const again = await as(m.t.owner.key).post(`/research/${runId}/claims`, { source_id: sourceId }).expect(200);
      expect(again.body).toMatchObject({ created: 2, over_limit_dropped: 3, source_created: false });
      await as(m.t.owner.key)
        .post(`/research/${runId}/claims`, { source_id: sourceId })
        .expect(409, {
          detail: `Source ${sourceId} of research run ${runId} already holds its limit of ${MAX_CLAIMS_PER_SOURCE} claims; no claims were added.`,
        });
      const claims = await as(m.t.owner.key).get(`/v1/research/${runId}/claims`).expect(200);
      expect(claims.body.total).toBe(MAX_CLAIMS_PER_SOURCE);
    });
  });
});

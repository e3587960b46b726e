import http from 'node:http';

/**
 * The worst stall allowed while hostile input is processed, in CPU time the process spent without giving
 * its event loop a turn. The service's target is 100 ms (measured by `npm run bench:hostile` on an idle
 * API); the margin covers the test runner's garbage collection and worker threads, and is still far below
 * what the inputs did before their fixes (seconds to minutes).
 */
export const WORST_BLOCK_MARGIN_MS = 300;

const SAMPLE_MS = 5;

/**
 * Runs `work` and reports the longest time this process held its event loop meanwhile. Each gap between
 * two timer turns counts as long as the CPU time the process used in it, at most its wall time: on a
 * crowded machine a process waiting for a core stalls without holding anything, and a wall clock alone
 * would blame the code for the machine. (The process's CPU time includes its other threads, so a gap is
 * never counted as shorter than the work the loop did in it.)
 */
export async function worstEventLoopBlock<T>(work: () => Promise<T>): Promise<{ result: T; worstMs: number }> {
  let worstMs = 0;
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  const sample = () => {
    const wall = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    worstMs = Math.max(worstMs, Math.min(wall - lastWall - SAMPLE_MS, cpuMs));
    lastWall = wall;
    lastCpu = process.cpuUsage();
  };
  const timer = setInterval(sample, SAMPLE_MS);
  try {
    const result = await work();
    sample();
    return { result, worstMs };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Runs `work` while asking `GET {origin}/health` again and again (one request at a time, a new one 20 ms
 * after each answer); reports the slowest answer. What a load balancer's health check sees.
 */
export async function worstHealthLatency<T>(
  origin: string,
  work: () => Promise<T>,
): Promise<{ result: T; worstMs: number; checks: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let done = false;
  let worstMs = 0;
  let checks = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      http
        .get(`${origin}/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`/health answered ${res.statusCode}`));
            worstMs = Math.max(worstMs, performance.now() - started);
            checks++;
            resolve();
          });
        })
        .on('error', reject);
    });
  const poller = (async () => {
    while (!done) {
      await once();
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    const result = await work();
    return { result, worstMs, checks };
  } finally {
    done = true;
    await poller;
    agent.destroy();
  }
}

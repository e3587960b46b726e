// The real API for bench:api: the same app factory and services as `npm run start:api`, on a free port.
const { loadConfig } = require('@research/core');
const { createApp } = require('@research/http');
const { openServices, buildAppContext } = require('@research/runtime');
const { createBullResearchQueue } = require('@research/queue');

async function main() {
  const config = loadConfig();
  const services = await openServices(config, 'api');
  const queue = createBullResearchQueue({
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    logger: services.logger,
  });
  const app = createApp(buildAppContext(services, queue));
  const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

// The bench (or a profiler run) asks for a clean exit so --cpu-prof can write its profile.
process.on('message', (m) => m === 'exit' && process.exit(0));

// bench:hostile asks between its inputs for the worst event-loop delay since its last question (the
// longest time the loop was held) and the process's memory.
const { monitorEventLoopDelay } = require('node:perf_hooks');
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
process.on('message', (m) => {
  if (m !== 'probe') return;
  process.send({ probe: { worstBlockMs: loopDelay.max / 1e6, rss: process.memoryUsage().rss } });
  loopDelay.reset();
});

// bench:events asks for the memory the process holds after a full garbage collection, before and after it
// opens its streams (V8's gc exposed here only, for the measurement).
process.on('message', (m) => {
  if (m !== 'memory') return;
  require('node:v8').setFlagsFromString('--expose-gc');
  require('node:vm').runInNewContext('gc')();
  const { rss, heapUsed, external } = process.memoryUsage();
  process.send({ memory: { rss, heapUsed, external } });
});

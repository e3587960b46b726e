import fs from 'node:fs';
import { loadServiceConfig } from '@research/runtime';

// Container healthcheck of a worker: healthy while the worker's heartbeat file is younger than 30 s.
// It reads the worker's own configuration, so a setting the worker refuses makes the check fail too.
try {
  const file = loadServiceConfig().workerHeartbeatFile;
  if (!file) throw new Error('WORKER_HEARTBEAT_FILE is not set');
  const age = Date.now() - fs.statSync(file).mtimeMs;
  process.exit(age < 30_000 ? 0 : 1);
} catch (error) {
  process.stderr.write(`unhealthy: ${(error as Error).message}\n`);
  process.exit(1);
}

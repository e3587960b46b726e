import { ConfigError } from '@research/core';
import { loadServiceConfig, runMigrations } from '@research/runtime';

// `npm run migrate`: applies pending migrations and exits.
Promise.resolve()
  .then(() => runMigrations(loadServiceConfig()))
  .then(
    (applied) => {
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'No pending migrations.\n');
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(
        `${error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`}\n`,
      );
      process.exit(1);
    },
  );

import type { Config } from 'jest';
import base from './jest.config';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tiers } = require('./scripts/test-tiers.js') as {
  tiers(): Array<{ file: string; tier: 'unit' | 'integration' }>;
};

// `npm run test:unit`: the tests that need no database, no Redis, no other process and no build
// (scripts/test-tiers.js tells them apart), from the TypeScript sources, without the global setup that
// looks for Postgres and Redis. `npm test` runs them with the rest.
const config: Config = {
  ...base,
  globalSetup: undefined,
  testMatch: tiers()
    .filter((t) => t.tier === 'unit')
    .map((t) => `<rootDir>/${t.file}`),
};

export default config;

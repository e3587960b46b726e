import type { Config } from 'jest';

// Tests run from TypeScript sources (@research/* mapped to packages/*/src); tests that start real
// processes run the compiled apps, which `npm test` builds first.

/** SWC's options for one kind of source: CommonJS, ES2022, React's automatic JSX runtime. */
function swcOptions(parser: { syntax: 'typescript'; tsx: boolean } | { syntax: 'ecmascript' }) {
  return {
    jsc: {
      parser,
      target: 'es2022',
      transform: { react: { runtime: 'automatic' }, useDefineForClassFields: true },
    },
    module: { type: 'commonjs' },
  };
}

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  // SWC strips the types (they are checked once by `npm run typecheck`, not per test file). CommonJS output turns `await import()` into require(), which
  // Jest's module registry can serve; ES2022 class fields as tsc's target ES2022 emits them.
  transform: {
    // The web page's component tests (apps/web/src/**/*.test.tsx) run in jsdom (a docblock asks for it).
    '^.+\\.tsx$': ['@swc/jest', swcOptions({ syntax: 'typescript', tsx: true })],
    '^.+\\.ts$': ['@swc/jest', swcOptions({ syntax: 'typescript', tsx: false })],
    // html-encoding-sniffer's @exodus/bytes ships only ES modules, which Node requires and Jest's CommonJS
    // registry does not: Jest transpiles that package alone.
    '/node_modules/@exodus/bytes/.+\\.js$': ['@swc/jest', swcOptions({ syntax: 'ecmascript' })],
  },
  transformIgnorePatterns: ['/node_modules/(?!@exodus/bytes/)'],
  moduleNameMapper: {
    '^@research/([^/]+)$': '<rootDir>/packages/$1/src',
    // A component's stylesheet is the bundler's business.
    '\\.css$': '<rootDir>/test/support/style-stub.js',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Lists data-driven suites skipped for want of RESEARCH_DATA_DIR (test/support/data-dir.ts).
  reporters: ['default', '<rootDir>/test/support/data-skip-reporter.js'],
  testTimeout: 60_000,
  maxWorkers: 2,
};

export default config;

import type { Config } from 'jest';

// Tests run from TypeScript sources (@research/* mapped to packages/*/src); tests that start real
// processes run the compiled apps, which `npm test` builds first.
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  // ts-jest in transpile-only mode: types are checked once by `npm run typecheck`, not per test file.
  // CommonJS output turns `await import()` into require(), which Jest's module registry can serve.
  transform: {
    // The web page's component tests (apps/web/src/**/*.test.tsx) run in jsdom (a docblock asks for it).
    '^.+\\.tsx?$': [
      'ts-jest',
      {
        diagnostics: false,
        tsconfig: { module: 'commonjs', moduleResolution: 'node10', isolatedModules: true, jsx: 'react-jsx' },
      },
    ],
    // html-encoding-sniffer's @exodus/bytes ships only ES modules, which Node requires and Jest's CommonJS
    // registry does not: Jest transpiles that package alone.
    '/node_modules/@exodus/bytes/.+\\.js$': [
      'ts-jest',
      {
        diagnostics: false,
        tsconfig: { allowJs: true, module: 'commonjs', moduleResolution: 'node10', isolatedModules: true },
      },
    ],
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

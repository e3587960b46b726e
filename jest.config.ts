import type { Config } from 'jest';

// Tests run from TypeScript sources (@research/* mapped to packages/*/src); tests that start real
// processes run the compiled apps, which `npm test` builds first.
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  moduleNameMapper: { '^@research/([^/]+)$': '<rootDir>/packages/$1/src' },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};

export default config;

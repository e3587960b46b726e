import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './scripts/lint/layers.js';

// The layers as import rules (scripts/lint/layers.js): a workspace imports only the @research packages of the layers
// below its own that its package.json declares, each by its name (its src/index.ts is all it offers).
const layerRules = layers.workspaces().map(({ dir, name, layer }) => {
  const allowed = layers.allowedImports(dir);
  return {
    files: [`${dir}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Its own name too: a test beside the code reads the package as its dependents do.
              group: ['@research/*', ...[...allowed, name].map((n) => `!${n}`)],
              message: `${dir} (layer ${layer}) may import ${allowed.join(', ') || 'no @research package'}: the layers are in scripts/lint/layers.js, the picture in docs/architecture.md.`,
            },
            { group: ['@research/*/*'], message: 'Import a package by its name: its src/index.ts is all it offers.' },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  { languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    // Size limits for library code. max-statements (a function's own statements) rather than a
    // line limit of about 60: factories such as createCrawler keep their helpers as nested
    // functions, and max-lines-per-function counts those too; the 150-line cap still stops a
    // factory from growing into a monster. max-params 4: a function that needs more takes one
    // options object whose field names say what each value is.
    files: ['packages/**/*.ts'],
    ignores: ['packages/**/*.test.ts'],
    rules: {
      complexity: ['error', 20],
      'max-statements': ['error', 35],
      'max-depth': ['error', 4],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 4],
    },
  },
  {
    files: ['scripts/**/*.js', 'test/**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...layerRules,
  {
    // The web page runs in a browser; hooks follow React's rules. It is a client of the HTTP API like any
    // other: it imports no package of the service.
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@research/*'], message: 'The web page imports no package: it is a client of the API.' },
          ],
        },
      ],
      complexity: ['error', 20],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
);

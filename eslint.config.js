// ESLint 9 flat config: typescript-eslint with type information.
const tseslint = require('typescript-eslint');
const { builtinModules } = require('node:module');

module.exports = tseslint.config(
  { ignores: ['node_modules/', 'generated/', 'clients/typescript/src/schema.ts', 'clients/python/', '.data/', 'dist/', 'coverage/', 'eslint.config.js', 'jest.config.js', '.dependency-cruiser.cjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Cancellation rejects with the AbortSignal's own reason (Temporal's CancelledFailure), whatever it is.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Configuration is read once, in platform/config.ts; everything else receives a Config.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through platform/config.ts.' }],
    },
  },
  {
    // Where reading the environment is the point: the config module, the bootstrap, tests, the clients' tooling and examples.
    files: ['platform/config.ts', 'scripts/setup.cjs', 'scripts/python-tools.cjs', 'scripts/tls-relay.cjs', 'scripts/generate-clients.ts', 'clients/**', 'test/**', '**/*.test.ts', 'scripts/runtime/temporal-server.ts', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['scripts/*.cjs', 'test/*.cjs', 'test/fuzz/*.cjs', 'scrape/formats/*.cjs', 'scrape/documents/*.cjs', 'test/fixtures/documents/src/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['scripts/*.cjs', 'test/*.cjs', 'test/fuzz/*.cjs', 'scrape/formats/*.cjs', 'scrape/documents/*.cjs', 'test/fixtures/documents/src/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Workflows run in Temporal's deterministic sandbox: no Node built-ins, no I/O.
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({ name, message: 'Workflows must stay deterministic: do I/O in activities.' })) }],
    },
  },
  {
    // One job per function, one subject per file (docs/architecture.md): a function past 150 lines
    // or a file past 400 is split along its seams. Physical lines, comments included. Tests,
    // benchmarks, fixtures and generated code are exempt.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/*.test.ts', 'test/**', 'bench/**', 'clients/**', 'generated/**'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 150 }],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    // jest's asymmetric matchers (expect.objectContaining, expect.any) are typed `any`, and tests
    // walk JSON answers whose shape the assertions themselves check.
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);

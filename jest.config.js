/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/.data/', '/generated/'],
  transform: {
    '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022' } }],
    // linkedom (scrape/main-content.ts) brings ESM-only css-select 7 (and kin) and cssomnom: compiled to
    // CommonJS for Jest's loader (Node itself requires them as they are).
    '/node_modules/(linkedom/node_modules/|cssomnom/).+\\.js$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } } }],
  },
  transformIgnorePatterns: ['^(?!.*/node_modules/(linkedom/node_modules/|cssomnom/)).*/node_modules/'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
  // Integration tests boot real services; two cores: at most two test files at once.
  maxWorkers: 2,
  testTimeout: 120_000,
};

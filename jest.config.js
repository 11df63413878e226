/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/.data/', '/generated/'],
  transform: { '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
  // Integration tests boot real services; two cores: at most two test files at once.
  maxWorkers: 2,
  testTimeout: 120_000,
};

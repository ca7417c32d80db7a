/**
 * The web app's end-to-end tests: Debian's Chromium (playwright-core, no browser download) on the real server and
 * database, one file at a time (the machine has two cores and each file runs a server and a browser). The database
 * comes from the suite's global setup: TEST_DATABASE_URL, or embedded PGlite when it is unset.
 */
const path = require('node:path');
module.exports = {
  rootDir: path.resolve(__dirname, '..', '..'),
  testEnvironment: 'node',
  roots: ['<rootDir>/web/e2e'],
  testMatch: ['**/*.e2e.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/web/e2e/tsconfig.json', diagnostics: false }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 60000,
};

/**
 * The web app's end-to-end tests: Debian's Chromium (playwright-core, no browser download) on the real server and
 * database, one file at a time (the machine has two cores and each file runs a server and a browser). The database
 * comes from the suite's global setup: TEST_DATABASE_URL, or the embedded cluster when it is unset.
 */
const path = require('node:path');
// The server's ES-module-only dependencies (openid-client and its kin) are compiled as in the unit suite.
const unit = require('../../jest.config.js');
module.exports = {
  rootDir: path.resolve(__dirname, '..', '..'),
  testEnvironment: 'node',
  roots: ['<rootDir>/web/e2e'],
  testMatch: ['**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/web/e2e/tsconfig.json', diagnostics: false }],
    '^.+\\.m?js$': '<rootDir>/test/esm-transform.cjs',
  },
  transformIgnorePatterns: unit.transformIgnorePatterns,
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 60000,
};

/** Test files run in parallel on the embedded cluster or on TEST_DATABASE_URL, each file in its own schema. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Transpile only (tsconfig has isolatedModules); `npm run typecheck` does the type checking.
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
    '^.+\\.m?js$': '<rootDir>/test/esm-transform.cjs',
  },
  // Only the ES-module-only packages are compiled (test/esm-transform.cjs); the rest of node_modules is left alone.
  transformIgnorePatterns: [
    '/node_modules/(?!(openid-client|oauth4webapi|jose|oidc-provider|got|nanoid|quick-lru|@sindresorhus|@szmarczak|cacheable-lookup|cacheable-request|decompress-response|form-data-encoder|get-stream|http2-wrapper|lowercase-keys|mimic-response|normalize-url|p-cancelable|responselike|keyv|mimic-fn)/)',
  ],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: 2,
  // A guard against a hang, not a speed requirement: on a loaded machine heavy tests (an ingest and analysis in a
  // child process) take several times what they take alone. Speed is measured in bench/, never here.
  testTimeout: 120000,
};

/**
 * The import rule of the house, enforced (test/unit/architecture.test.ts runs it): imports flow one way,
 *   main (the composition root) → http → rest / graphql → services → auth · ingest · analysis · cypher → graph → db → the
 *   shared leaf modules (src/*.ts)
 * Each room lists the rooms it may import; anything else is an error. There are no exceptions. src/generated
 * holds types that graphql-codegen writes (resolver and operation types) and is imported with `import type`.
 * Pinned to dependency-cruiser 17: 18 needs Node 22 and the service runs on Node 20.
 */
const ROOMS = {
  db: [],
  auth: [],
  generate: [],
  graph: ['db'],
  ingest: ['graph', 'db'],
  analysis: ['graph', 'db'],
  cypher: ['graph'],
  services: ['auth', 'db', 'graph', 'ingest', 'analysis', 'cypher'],
  graphql: ['services', 'auth', 'generated'],
  rest: ['graphql', 'services', 'auth', 'generated'],
  http: ['rest', 'graphql', 'services', 'auth', 'db', 'generated'],
  // the composition root: builds database → stores → services → schema → app, so it may import every room
  main: ['http', 'rest', 'graphql', 'services', 'auth', 'ingest', 'analysis', 'cypher', 'graph', 'db', 'generate', 'generated'],
};
const LEAF = '^src/[^/]+[.]ts$';

/** Packages a room must not reach for: the stores and the graph know nothing of HTTP or GraphQL. */
const NO_WEB = 'node_modules/(express|graphql|graphql-yoga|@graphql-tools)/';

module.exports = {
  allowed: [
    // packages and node's own modules: restricted below by `forbidden`, not here
    { from: {}, to: { dependencyTypesNot: ['local', 'localmodule', 'aliased', 'unknown', 'undetermined'] } },
    // types only: the generated files (absent until `npm run codegen`) and the typed-document-node package
    { from: {}, to: { couldNotResolve: true, path: '(^|/)generated/|^@graphql-typed-document-node/core$' } },
    // the shared leaf modules (config, errors, messages, logger, scope) import only each other
    { from: { path: LEAF, pathNot: '^src/cli[.]ts$' }, to: { path: LEAF } },
    // the command line (cli.ts and its commands in src/cli/) is a composition root: it may import any room
    { from: { path: '^src/cli([.]ts$|/)' }, to: { path: '^src/' } },
    // generated types name the models they map to
    { from: { path: '^src/generated/' }, to: { path: '^src/' } },
    ...Object.entries(ROOMS).map(([room, may]) => ({
      from: { path: `^src/${room}/` },
      to: { path: `^src/(${[room, ...may].join('|')})/|${LEAF}` },
    })),
  ],
  allowedSeverity: 'error',
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-web-below-services', severity: 'error', from: { path: '^src/(db|graph|ingest|analysis|cypher)/' }, to: { path: NO_WEB } },
    { name: 'no-http-in-services', severity: 'error', from: { path: '^src/services/' }, to: { path: 'node_modules/(express|graphql-yoga)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};

import crypto from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/** Generators of hostile and ordinary request parts for bench/fuzz.ts; deterministic for a seed (the generator's `rng`). */
export type Rng = () => number;

export const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const int = (r: Rng, max: number) => Math.floor(r() * max);
const uuid = (r: Rng) => {
  const b = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) b[i] = int(r, 256);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const PARAMS_GOOD = [
  '1',
  '2',
  '0',
  '3',
  'sharphound',
  'azurehound',
  'v2.5.0',
  'latest',
  'S-1-5-21-1-2-3-500',
  'test-idp',
  'admin',
  'Base',
  'User',
];
const PARAMS_BAD = [
  '%',
  '%E0%A4%A',
  '%ZZ',
  '%C0%AF',
  '%FF%FE',
  '%00',
  'a%00b',
  '-1',
  '2147483648',
  '99999999999999999999',
  '1.5',
  '1e9',
  'null',
  'true',
  '%5B%5D',
  '%7B%7D',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%20',
  '%27%3B%20drop%20table%20users%3B--',
  'ü🦀',
  '%F0%9F%A6%80',
  '%u0041',
  '\\x00',
];

/** A path parameter: plausible, an id, or bad bytes. */
export function fuzzParam(r: Rng): string {
  const x = r();
  if (x < 0.3) return pick(r, PARAMS_GOOD);
  if (x < 0.45) return uuid(r);
  if (x < 0.5) return 'A'.repeat(pick(r, [300, 5000, 20_000]));
  if (x < 0.55) return crypto.randomBytes(int(r, 12) + 1).toString('hex');
  return pick(r, PARAMS_BAD);
}

const QUERY_NAMES = [
  'limit',
  'skip',
  'sort_by',
  'user_id',
  'type',
  'start_node',
  'end_node',
  'relationship_kinds',
  'only_traversable',
  'hydrate_ous',
  'hydrate_domains',
  'counts',
  'count',
  'selector_id',
  'name',
  'id',
  'created_at',
  'client_id',
  'status',
  'kind',
  'environment_id',
  'q',
];
const QUERY_VALUES = [
  'gte:5',
  'eq:1',
  'lt:x',
  'like:%25',
  'neq:',
  '-name',
  'name',
  'true',
  'false',
  'in:a,b',
  '',
  '%',
  '%00',
  'a%00',
  '%E0%A4%A',
  '1e400',
  '-0',
];

/** A query string of a few parameters, repeated keys and bad encodings included. */
export function fuzzQuery(r: Rng): string {
  const n = int(r, 5);
  if (n === 0) return '';
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = r() < 0.9 ? pick(r, QUERY_NAMES) : fuzzParam(r);
    const value = r() < 0.5 ? pick(r, QUERY_VALUES) : fuzzParam(r);
    parts.push(r() < 0.05 ? name : `${name}${r() < 0.05 ? '[a]' : ''}=${value}`);
  }
  return `?${parts.join('&')}`;
}

const FIELDS = [
  'login_method',
  'username',
  'secret',
  'otp',
  'token_name',
  'user_id',
  'name',
  'description',
  'kind',
  'custom_types',
  'icon',
  'type',
  'color',
  'rrule',
  'client_id',
  'domain_controller',
  'all_trusted_domains',
  'session_collection',
  'ad_structure_collection',
  'ous',
  'domains',
  'job_id',
  'status',
  'message',
  'start_node',
  'end_node',
  'relationship_kinds',
  'query',
  'seeds',
  'position',
  'require_certify',
  'auto_certify',
  'metadata',
  'hostname',
  'version',
  'principal',
  'roles',
  'email_address',
  'first_name',
  'last_name',
  'event_id',
  'task_id',
  'collection_start_time',
  'collection_end_time',
];

function jsonValue(r: Rng, depth: number): unknown {
  const x = r();
  if (depth > 3 || x < 0.45) {
    return pick(r, [
      'x',
      '',
      'admin',
      'secret',
      'a\u0000b',
      '\u0000',
      'ü🦀',
      'A'.repeat(3000),
      '2026-01-01T00:00:00Z',
      'FREQ=DAILY;INTERVAL=1',
      uuid(r),
      0,
      -1,
      1,
      2147483648,
      1e308,
      -0,
      0.5,
      true,
      false,
      null,
    ]);
  }
  if (x < 0.65) return Array.from({ length: int(r, 4) }, () => jsonValue(r, depth + 1));
  if (x < 0.67) return Array.from({ length: 1000 }, (_, i) => `S-1-5-21-${i}`);
  const o: Record<string, unknown> = {};
  for (let i = int(r, 5); i >= 0; i--) o[r() < 0.95 ? pick(r, FIELDS) : `k\u0000${i}`] = jsonValue(r, depth + 1);
  return o;
}

/** A request body: mostly JSON objects with the fields routes read, sometimes broken bytes or odd types. */
export function fuzzJson(r: Rng): { data: Buffer; contentType: string; gzip: boolean } {
  const x = r();
  let text: string;
  if (x < 0.7) text = JSON.stringify(jsonValue(r, 0));
  else if (x < 0.75) {
    const n = pick(r, [100, 10_000, 50_000]);
    text = `${'['.repeat(n)}${']'.repeat(n)}`;
  } else if (x < 0.8) text = `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5001)}`;
  else if (x < 0.85)
    text = pick(r, ['not json', '{', '\uFEFF{}', '{"a":1}garbage', '"\\ud800"', '{"__proto__":{"x":1}}', '{"a":"\\u0000"}']);
  else if (x < 0.9)
    return { data: crypto.randomBytes(int(r, 4096)), contentType: pick(r, ['application/json', 'application/octet-stream']), gzip: false };
  else text = `login_method=secret&username=a%00&SAMLResponse=${'A'.repeat(int(r, 2000))}`;
  const contentType = pick(r, [
    'application/json',
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=zzz',
    'application/vnd+json',
    '',
  ]);
  return { data: Buffer.from(text), contentType, gzip: r() < 0.05 };
}

// ---- GraphQL ----------------------------------------------------------------------------------------------

function literal(r: Rng, type: GraphQLInputType, depth: number): string {
  if (isNonNullType(type)) return literal(r, type.ofType, depth);
  if (isListType(type))
    return `[${Array.from({ length: int(r, 3) }, () => literal(r, type.ofType as GraphQLInputType, depth + 1)).join(', ')}]`;
  if (r() < 0.05) return pick(r, ['null', '1', '"x"', 'true', '[]', '{}']);
  if (isEnumType(type)) return pick(r, type.getValues()).name;
  if (isInputObjectType(type)) {
    if (depth > 3) return '{}';
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) || r() < 0.5);
    return `{ ${fields.map((f) => `${f.name}: ${literal(r, f.type, depth + 1)}`).join(', ')} }`;
  }
  const named = getNamedType(type).name;
  if (named === 'Int') return pick(r, ['0', '1', '-1', '5', '2147483647', '2147483648', '99999999999999']);
  if (named === 'Float') return pick(r, ['0.5', '1e308', '-1']);
  if (named === 'Boolean') return pick(r, ['true', 'false']);
  return JSON.stringify(
    pick(r, ['x', '', 'admin', 'a\u0000b', 'S-1-5-21-1-2-3-500', '1', uuid(r), 'A'.repeat(3000), '2026-01-01T00:00:00Z', 'eq:1']),
  );
}

function selection(r: Rng, type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (isScalarType(named) || isEnumType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const fields = Object.values(named.getFields());
  const chosen = fields.filter(() => r() < 0.4).slice(0, 5);
  if (!chosen.length) chosen.push(fields[0]!);
  const parts = chosen.map((f) => {
    const sub = depth < 3 ? selection(r, f.type, depth + 1) : '';
    if (!sub && !isScalarType(getNamedType(f.type)) && !isEnumType(getNamedType(f.type))) return '__typename';
    return `${f.name}${args(r, f)} ${sub}`;
  });
  return `{ ${parts.join(' ')} }`;
}

function args(r: Rng, f: GraphQLField<unknown, unknown>): string {
  const list = f.args.filter((a) => isNonNullType(a.type) || r() < 0.4);
  return list.length ? `(${list.map((a) => `${a.name}: ${literal(r, a.type, 0)}`).join(', ')})` : '';
}

const HOSTILE: Array<(r: Rng) => { query: string; variables?: string; raw?: string }> = [
  () => ({ query: `{ ${Array.from({ length: 20_000 }, (_, i) => `a${i}: __typename`).join(' ')} }` }),
  () => ({ query: `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(' ')} }` }),
  () => ({ query: `${'{ a '.repeat(5000)}${'}'.repeat(5000)}` }),
  () => ({
    query: `mutation { ${Array.from({ length: 20 }, (_, i) => `l${i}: login(input: { loginMethod: "secret", username: "admin", secret: "x" }) { sessionToken }`).join(' ')} }`,
  }),
  () => ({ query: '{ __schema { types { name fields { name } } } }' }),
  () => ({ query: '{ __type(name: "Query") { name } }' }),
  () => ({ query: '{ self { id name } }' }),
  () => ({ query: 'query { a: self { id } } fragment F on User { ...G } fragment G on User { ...F }' }),
  () => ({ query: `{ __typename ${'@skip(if: false) '.repeat(200)} }` }),
  () => ({ query: '{ "unterminated' }),
  () => ({ query: '' }),
  () => ({ query: '{ __typename }', variables: `{"v":${'['.repeat(5000)}${']'.repeat(5000)}}` }),
  () => ({ query: 'query($v: String) { __typename }', variables: '{"v":"a\\u0000b"}' }),
  () => ({ query: 'query($v: String) { __typename }', variables: 'not json' }),
  () => ({ query: '', raw: '[{"query":"{ __typename }"},{"query":"{ __typename }"}]' }),
  () => ({ query: '', raw: '{"query": 5}' }),
  () => ({ query: '', raw: '{"query": "{ __typename }", "operationName": {"a":1}}' }),
  () => ({ query: '', raw: 'garbage' }),
  (r) => ({ query: `{ __typename }${' '.repeat(int(r, 300_000))}` }),
  () => ({ query: '{ __typename \\u0000 }' }),
];

export interface FuzzedGraphQL {
  query: string;
  variables?: string;
  raw?: string;
  operationName?: string;
}

/** Every operation type a document may name, served or not; the fields come from the query or mutation root. */
const OPERATION_TYPES = ['query', 'mutation', 'subscription', ''] as const;

/** The selection of one operation: a few root fields, aliased, with arguments, nested selections and directives. */
function operationBody(r: Rng, schema: GraphQLSchema, fromMutation: boolean): string {
  const root = (fromMutation ? schema.getMutationType() : schema.getQueryType())!;
  const fields = Object.values(root.getFields()).filter((f) => !/^(logout|deleteUser|disableUser|deleteToken)$/.test(f.name) || r() < 0.1);
  const chosen = Array.from({ length: 1 + int(r, 2) }, () => pick(r, fields));
  const directive = () => (r() < 0.1 ? pick(r, [' @include(if: true)', ' @skip(if: false)', ' @skip(if: $nope)', ' @deprecated']) : '');
  return chosen.map((f, i) => `f${i}: ${f.name}${args(r, f)}${directive()} ${selection(r, f.type, 1)}`).join(' ');
}

/** Documents of every shape an operation can take: named, several with operationName, fragments, variables, type definitions. */
function shapedDocument(r: Rng, schema: GraphQLSchema): FuzzedGraphQL {
  const type = pick(r, OPERATION_TYPES);
  const body = operationBody(r, schema, type === 'mutation' || (type === 'subscription' && r() < 0.5));
  const head = type === '' ? '' : `${type}${r() < 0.5 ? ' Op' : ''}${r() < 0.2 ? '($limit: Int, $q: String = "a")' : ''} `;
  const shape = int(r, 6);
  if (shape === 0) return { query: `${head}{ ${body} }` };
  if (shape === 1) {
    // Several operations; operationName picks one, none, or one that is not there.
    const other = pick(r, OPERATION_TYPES.filter(Boolean));
    const query = `${type || 'query'} A { ${body} } ${other} B { ${operationBody(r, schema, other === 'mutation')} }`;
    return { query, operationName: pick(r, ['A', 'B', 'C', '']) };
  }
  if (shape === 2) {
    const on = pick(r, ['Query', 'Mutation', 'Subscription', 'User', 'Nope']);
    return { query: `${head}{ ...F } fragment F on ${on} { __typename }` };
  }
  if (shape === 3) return { query: `${head}{ ... on Query { __typename } ${body} }` };
  if (shape === 4)
    return { query: pick(r, ['type X { a: Int }', 'schema { query: Query }', 'extend type Query { x: Int }', 'directive @d on FIELD']) };
  // A page-heavy document near and over the response budget.
  const n = pick(r, [1, 9, 10, 25]);
  return {
    query: `${type || 'query'} ($limit: Int) { ${Array.from({ length: n }, (_, i) => `s${i}: search(query: "a", limit: $limit) { totalCount nodes { name objectId } }`).join(' ')} }`,
    variables: JSON.stringify({ limit: pick(r, [10, 1000, -1, null]) }),
  };
}

/** A GraphQL request: a generated operation over the real schema, a document of another shape, or a hostile one. */
export function fuzzGraphQL(r: Rng, schema: GraphQLSchema): FuzzedGraphQL {
  if (r() < 0.3) return pick(r, HOSTILE)(r);
  if (r() < 0.35) return shapedDocument(r, schema);
  const mutation = r() < 0.4;
  return { query: `${mutation ? 'mutation' : 'query'} { ${operationBody(r, schema, mutation)} }` };
}

import request from 'supertest';
import { COST_LIMITS, estimateValues } from '../../src/graphql/cost';
import { buildSchema } from '../../src/graphql/schema';
import { parse } from 'graphql';
import { CostlyWork } from '../../src/services/common/costly-work';
import { userWithRole, useTestApp } from '../helpers/app';

const aliased = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
const search = (limit: number | string) => `search(query: "a", limit: ${limit}) { totalCount nodes { name objectId } }`;

/**
 * The response budget counts aliases × page sizes × nesting and refuses a document over it before anything runs,
 * naming the budget; documents estimated as costly take turns per caller (src/services/common/costly-work.ts).
 */
describe('GraphQL response budget and costly work per caller', () => {
  // Room in all for two callers' turns, so one caller's limit can be seen apart from the total.
  const t = useTestApp({ costlyWork: { perCaller: 2, total: 4 } });
  let reader: { id: string; jwt: string };
  beforeAll(async () => {
    reader = await userWithRole(t, 'Read-Only');
  });
  const gql = (query: string, variables?: Record<string, unknown>, jwt = reader.jwt) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${jwt}`).send({ query, variables });

  it('estimates aliases × limits × nesting', () => {
    const schema = buildSchema();
    const one = estimateValues(schema, parse(`{ ${search(1000)} }`), undefined, {});
    // search, totalCount and the nodes array once; each node's two fields a thousand times.
    expect(one).toBe(3 + 1000 * 2);
    expect(estimateValues(schema, parse(aliased(25, search(1000))), undefined, {})).toBe(25 * one);
    expect(estimateValues(schema, parse(`query($n: Int) { ${search('$n')} }`), undefined, { n: 1000 })).toBe(one);
    // No limit: the services' largest default page.
    expect(estimateValues(schema, parse('{ search(query: "a") { nodes { name } } }'), undefined, {})).toBe(2 + 100);
  });

  it("refuses a Read-Only user's 25 aliased searches of 1,000 before running them, naming the budget", async () => {
    const res = await gql(aliased(25, search(1000)));
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toMatch(new RegExp(`about 50075 values, over the response budget of ${COST_LIMITS.maxValues}`));
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    const viaVariable = await gql(`query($n: Int) ${aliased(25, search('$n'))}`, { n: 1000 });
    expect(viaVariable.status).toBe(400);
    expect(viaVariable.body.errors[0].message).toMatch(/response budget/);
  });

  it('answers documents inside the budget', async () => {
    const res = await gql(aliased(6, search(1000)));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toHaveLength(6);
  });

  it('keeps REST list routes at their largest page: their documents are fixed and their pages capped', async () => {
    const res = await request(t.app).get('/api/v2/clients?limit=1000').set('Authorization', `Bearer ${t.adminJwt}`);
    expect(res.status).toBe(200);
  });

  it("runs a costly field in a turn of its caller's, and refuses one when too many wait", async () => {
    const gate: CostlyWork = t.services.costlyWork;
    const caller = `user:${reader.id}`;
    // The caller's two turns are taken (as two costly fields running would take them).
    const held = [gate.enter(caller), gate.enter(caller)] as (() => void)[];
    const pending = gql(aliased(2, search(1000))).then((r) => r);
    for (let i = 0; i < 100 && gate.load(caller).waiting < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(gate.load(caller)).toEqual({ running: 2, waiting: 2 });
    // A cheap field does not wait, nor does another caller's costly one.
    expect((await gql(`{ ${search(5)} }`)).status).toBe(200);
    expect((await gql(`{ ${search(1000)} }`, undefined, t.adminJwt)).status).toBe(200);
    held[0]!();
    held[1]!();
    expect((await pending).status).toBe(200);
    expect(gate.load(caller)).toEqual({ running: 0, waiting: 0 });
  });

  it('takes turns per caller and in all, in order of arrival, and refuses past the waiting room', async () => {
    const gate = new CostlyWork({ perCaller: 1, total: 2, waitingPerCaller: 1 });
    const order: string[] = [];
    const a1 = gate.enter('a') as () => void;
    const b1 = gate.enter('b') as () => void;
    // Both turns in all are taken: c waits although it runs nothing yet.
    const c1 = (gate.enter('c') as Promise<() => void>).then((r) => (order.push('c'), r));
    const a2 = (gate.enter('a') as Promise<() => void>).then((r) => (order.push('a'), r));
    expect(() => gate.enter('a')).toThrow(/At most 1 costly operations per caller run at once \(and 1 may wait\)/);
    a1();
    (await c1)();
    b1();
    (await a2)();
    expect(order).toEqual(['c', 'a']);
    expect(gate.load('a')).toEqual({ running: 0, waiting: 0 });
  });
});

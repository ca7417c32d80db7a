import { z } from 'zod';
import { AppError } from '../../../src/errors';
import { comparePaths, groupBySpecificity } from '../../../src/http/rest-router';
import { field, intText, parse, query } from '../../../src/rest/params';
import type { RestRoute } from '../../../src/rest/route';

/** The 400 a parse throws, as {context, message}. */
function refusal(fn: () => unknown): { status: number; context: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, context: err.context, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('REST parameters', () => {
  const list = z.object({ skip: query.int(), limit: query.int(), sort_by: query.many(), hydrate: query.bool(true) });

  it('parses query strings into the types operations take', () => {
    expect(parse('jobs', 'query', list, {})).toEqual({ skip: null, limit: null, sort_by: [], hydrate: true });
    expect(parse('jobs', 'query', list, { skip: '5', limit: '', sort_by: ['a', '-b'], hydrate: 'F' })).toEqual({
      skip: 5,
      limit: null,
      sort_by: ['a', '-b'],
      hydrate: false,
    });
  });

  it.each([
    [{ skip: 'x' }, 'query parameter skip is malformed: expected an integer.'],
    [{ skip: '-1' }, 'query parameter skip must be >= 0.'],
    [{ limit: '99999999999' }, 'query parameter limit is malformed: expected an integer.'],
    [{ limit: '2147483648' }, 'query parameter limit is out of range.'],
    [{ skip: ['1', '2'] }, 'query parameter skip must be given once.'],
    [{ hydrate: 'maybe' }, 'query parameter hydrate is malformed: expected true or false.'],
  ])('refuses %j with a 400 naming the parameter, in the route context', (q, message) => {
    expect(refusal(() => parse('jobs', 'query', list, q))).toEqual({ status: 400, context: 'jobs', message });
  });

  it('names path parameters and body fields by name, and a body that is not an object as the body', () => {
    expect(refusal(() => parse('events', 'path', z.object({ event_id: intText(1) }), { event_id: '0' })).message).toBe(
      'event_id must be >= 1.',
    );
    const body = z.object({ name: z.string(), ous: field.strings(), flag: field.bool() });
    expect(refusal(() => parse('clients', 'body', body, { ous: [] })).message).toBe('name is required.');
    expect(refusal(() => parse('clients', 'body', body, { name: 'a', ous: [1] })).message).toBe('ous must be an array of strings.');
    expect(refusal(() => parse('clients', 'body', body, { name: 'a', flag: 'yes' })).message).toBe('flag must be true or false.');
    expect(refusal(() => parse('clients', 'body', body, [1])).message).toBe('The JSON body must be an object.');
    expect(parse('clients', 'body', body, { name: 'a', ous: null })).toEqual({ name: 'a', ous: null, flag: null });
  });
});

describe('REST route order', () => {
  const r = (method: RestRoute['method'], path: string) => ({ method, path, context: 'x', operation: 'GetSelf' }) as RestRoute;

  it('tries literal segments before parameters, whatever the declaration order', () => {
    const order = groupBySpecificity([
      r('GET', '/api/v2/jobs/:job_id'),
      r('GET', '/api/v2/asset-group-tags/:tag_id/members/:member_id'),
      r('GET', '/api/v2/jobs/finished'),
      r('POST', '/api/v2/asset-group-tags/certifications'),
      r('GET', '/api/v2/asset-group-tags/:tag_id/members/counts'),
      r('GET', '/api/v2/asset-group-tags/:tag_id'),
    ]).map(([key]) => key);
    expect(order.indexOf('GET /api/v2/jobs/finished')).toBeLessThan(order.indexOf('GET /api/v2/jobs/:job_id'));
    expect(order.indexOf('GET /api/v2/asset-group-tags/:tag_id/members/counts')).toBeLessThan(
      order.indexOf('GET /api/v2/asset-group-tags/:tag_id/members/:member_id'),
    );
    expect(order.indexOf('POST /api/v2/asset-group-tags/certifications')).toBeLessThan(
      order.indexOf('GET /api/v2/asset-group-tags/:tag_id'),
    );
  });

  it('is a total order (antisymmetric), so sorting is stable across runs', () => {
    const paths = ['/a/:x', '/a/b', '/a/b/:y', '/b', '/a/:x/c'];
    for (const a of paths) for (const b of paths) expect(Math.sign(comparePaths(a, b)) + Math.sign(comparePaths(b, a))).toBe(0);
  });

  it('groups routes of one method and path together, the `when` alternatives in declaration order', () => {
    const groups = groupBySpecificity([r('GET', '/a/:x'), r('GET', '/a/:x'), r('POST', '/a/:x')]);
    expect(groups.map(([key, g]) => [key, g.length])).toEqual([
      ['GET /a/:x', 2],
      ['POST /a/:x', 1],
    ]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { ingestPath } from '../../src/ingest/ingest-path';
import { tailMeta } from '../../src/ingest/tail-meta';
import { useIngestFiles } from '../helpers/ingest-files';
import { dataFirst } from '../helpers/data-first';
import { TESTLAB } from '../helpers/fixtures';

/**
 * Data-first files on disk (SharpHound's order) have their meta read from the end, so items are converted as they
 * stream rather than spooled: the hint must never be wrong in a way that lands data, and a file that does not end
 * in a meta object gets no hint at all.
 */
describe('meta read from the end of a data-first file', () => {
  const f = useIngestFiles('gas-tail-meta-');
  const { write } = f;
  const user = (id: string) => ({ ObjectIdentifier: id, Properties: { name: id }, Aces: [] });

  it('finds the top-level meta of a data-first file, and nothing in other shapes', () => {
    const users = fs.readFileSync(path.join(TESTLAB, 'users.json'));
    expect(tailMeta(write('a.json', dataFirst(users)))).toMatchObject({ type: 'users' });
    expect(tailMeta(write('b.json', `{"data": [], "meta": {"type": "groups", "x": "a\\"}b"}}\n\n`))).toEqual({ type: 'groups', x: 'a"}b' });
    // meta first, nested in the last item, followed by more members, a string that looks like one, trailing bytes
    expect(tailMeta(path.join(TESTLAB, 'users.json'))).toBeUndefined();
    expect(tailMeta(write('c.json', '{"data": [{"meta": {"type": "users"}}]}'))).toBeUndefined();
    expect(tailMeta(write('d.json', '{"data": [], "meta": {"type": "users"}, "extra": {}}'))).toBeUndefined();
    expect(tailMeta(write('e.json', '{"data": ["\\"meta\\": {\\"type\\": \\"users\\"}"]}'))).toBeUndefined();
    expect(tailMeta(write('f.json', '{"data": [], "meta": {"type": "users"}} x'))).toBeUndefined();
    expect(tailMeta(write('g.json', '{"data": [], "meta": {"type": "us'))).toBeUndefined();
    expect(tailMeta(write('h.json', ''))).toBeUndefined();
    expect(tailMeta(path.join(f.dir(), 'missing.json'))).toBeUndefined();
  });

  it('ingests a data-first file to the same graph as its meta-first form', async () => {
    const items = [user('S-1-5-21-9-1001'), user('S-1-5-21-9-1002')];
    const first = await ingestPath(f.store(), write('first.json', JSON.stringify({ meta: { type: 'users', version: 6 }, data: items })));
    const last = await ingestPath(f.store(), write('last.json', JSON.stringify({ data: items, meta: { type: 'users', version: 6 } })));
    expect(first.errors).toEqual([]);
    expect(last.errors).toEqual([]);
    expect(last.files[0]).toMatchObject({ type: 'users', objects: 2, nodes: first.files[0]!.nodes });
    expect((await f.store().nodeByObjectId('S-1-5-21-9-1002'))!.kinds).toContain('User');
  });

  it('refuses a file whose first meta differs from the one at its end, writing nothing', async () => {
    const before = (await f.db().query<{ n: number }>('select count(*)::int as n from graph_nodes'))[0]!.n;
    const body = `{"data": [${JSON.stringify(user('S-1-5-21-9-2001'))}], "meta": {"type": "users"}, "meta": {"type": "groups"}}`;
    const r = await ingestPath(f.store(), write('twice.json', body));
    expect(r.files).toEqual([]);
    expect(r.errors[0]!.message).toMatch(/^twice\.json: meta\.type "users" differs from the "groups"/);
    expect((await f.db().query<{ n: number }>('select count(*)::int as n from graph_nodes'))[0]!.n).toBe(before);
    expect(await f.store().nodeByObjectId('S-1-5-21-9-2001')).toBeUndefined();
  });
});

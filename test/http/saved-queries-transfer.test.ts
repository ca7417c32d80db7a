import request from 'supertest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';

/** A zip of `[name, content]` entries, built with the library the export uses. */
async function zipOf(entries: [string, string | Buffer][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of entries) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The entries of a zip as name → text. */
async function unzip(data: Buffer): Promise<Record<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((res, rej) =>
    yauzl.fromBuffer(data, { lazyEntries: true }, (e, z) => (e ? rej(e) : res(z!))),
  );
  const out: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (err, s) => {
        if (err) return reject(err);
        const parts: Buffer[] = [];
        s!
          .on('data', (c: Buffer) => parts.push(c))
          .on('end', () => {
            out[entry.fileName] = Buffer.concat(parts).toString('utf8');
            zip.readEntry();
          });
      }),
    );
    zip.on('end', resolve).on('error', reject);
    zip.readEntry();
  });
  return out;
}

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const parts: Buffer[] = [];
  res.on('data', (c: Buffer) => parts.push(c)).on('end', () => cb(null, Buffer.concat(parts)));
};

/**
 * Import and export as BloodHound's client drives them: one query as `<name>.json`, a scope as a zip, and imports
 * of BloodHound's JSON, the query library's YAML and Queries.json, BloodHound legacy's customqueries.json, zips
 * and forms of them; hostile bodies are refused with a 4xx and store nothing.
 */
describe('saved queries: import and export', () => {
  const t = useTestApp({ maxJsonBodyBytes: 256 * 1024 });
  let user: { id: string; jwt: string };
  const auth = () => ({ Authorization: `Bearer ${user.jwt}` });
  const importBody = (body: string | Buffer, type: string) =>
    request(t.app).post('/api/v2/saved-queries/import').set(auth()).set('Content-Type', type).send(body);
  const names = async () =>
    (await request(t.app).get('/api/v2/saved-queries?sort_by=name').set(auth())).body.data.map((q: { name: string }) => q.name);

  beforeAll(async () => {
    user = await userWithRole(t, 'User', 'importer');
  });

  it('imports BloodHound’s export JSON and answers 201 "imported N queries"', async () => {
    const res = await importBody(JSON.stringify({ name: 'one', query: 'MATCH (n:User) RETURN n', description: 'd' }), 'application/json');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: 'imported 1 queries' });
    expect(await names()).toEqual(['one']);
  });

  it('imports the query library: a YAML file, several YAML documents, and Queries.json', async () => {
    const yml = [
      'name: All Kerberoastable users',
      'guid: 14ab4eaa-b73b-49c4-b2d1-1e020757c995',
      'prebuilt: true',
      'platforms: Active Directory',
      'category: Kerberos Interaction',
      'description: ',
      'query: |-',
      '  MATCH (u:User)',
      '  WHERE u.hasspn = true',
      '  RETURN u',
      'revision: 1',
    ].join('\n');
    expect((await importBody(yml, 'application/yaml')).status).toBe(201);
    const docs = 'name: yaml a\nquery: MATCH (a) RETURN a\n---\nname: yaml b\nquery: MATCH (b) RETURN b\ndescription: second\n';
    expect((await importBody(docs, 'text/yaml')).body).toEqual({ data: 'imported 2 queries' });
    const library = JSON.stringify([
      {
        name: 'lib one',
        guid: 'x',
        prebuilt: false,
        platform: ['Azure'],
        category: 'General',
        description: null,
        query: 'MATCH (t:AZTenant) RETURN t',
      },
      { name: 'lib two', query: 'MATCH (d:Domain) RETURN d', revision: 1 },
    ]);
    expect((await importBody(library, 'application/json')).body).toEqual({ data: 'imported 2 queries' });
    expect(await names()).toEqual(expect.arrayContaining(['All Kerberoastable users', 'yaml a', 'yaml b', 'lib one', 'lib two']));
    const kerb = (await request(t.app).get('/api/v2/saved-queries?name=All Kerberoastable users').set(auth())).body.data[0];
    expect(kerb.query).toBe('MATCH (u:User)\nWHERE u.hasspn = true\nRETURN u');
  });

  it('imports BloodHound legacy’s customqueries.json: the final step’s Cypher, the category as description', async () => {
    const legacy = {
      queries: [
        {
          name: 'Legacy DA sessions',
          category: 'Legacy',
          queryList: [{ final: true, query: 'MATCH (c:Computer)-[:HasSession]->(u:User) RETURN c, u' }],
        },
        {
          name: 'Legacy picked group',
          category: 'Legacy',
          queryList: [
            { final: false, title: 'Select a group', query: 'MATCH (g:Group) RETURN g.name' },
            { final: true, query: 'MATCH (n)-[:MemberOf]->(g:Group) RETURN n', allowCollapse: true },
          ],
        },
      ],
    };
    expect((await importBody(JSON.stringify(legacy), 'application/json')).body).toEqual({ data: 'imported 2 queries' });
    const picked = (await request(t.app).get('/api/v2/saved-queries?name=Legacy picked group').set(auth())).body.data[0];
    expect(picked).toMatchObject({ query: 'MATCH (n)-[:MemberOf]->(g:Group) RETURN n', description: 'Legacy' });
  });

  it('imports a zip (macOS metadata skipped), a form of files, and sniffs an octet-stream', async () => {
    const zip = await zipOf([
      ['q/zip one.json', JSON.stringify({ name: 'zip one', query: 'MATCH (n) RETURN n' })],
      ['q/zip two.yml', 'name: zip two\nquery: MATCH (m) RETURN m\n'],
      ['__MACOSX/q/._zip one.json', 'garbage'],
      ['.hidden.json', 'garbage'],
      ['readme.txt', 'not a query'],
    ]);
    expect((await importBody(zip, 'application/zip')).body).toEqual({ data: 'imported 2 queries' });
    expect(
      (await importBody(await zipOf([['z3.json', JSON.stringify({ name: 'zip three', query: 'RETURN 1' })]]), 'application/octet-stream'))
        .status,
    ).toBe(201);
    const form = await request(t.app)
      .post('/api/v2/saved-queries/import')
      .set(auth())
      .attach('file', Buffer.from(JSON.stringify({ name: 'form one', query: 'MATCH (x) RETURN x' })), 'form one.json')
      .attach('file', Buffer.from('name: form two\nquery: MATCH (y) RETURN y\n'), 'form two.yaml');
    expect(form.status).toBe(201);
    expect(form.body).toEqual({ data: 'imported 2 queries' });
    expect(await names()).toEqual(expect.arrayContaining(['zip one', 'zip two', 'zip three', 'form one', 'form two']));
  });

  it('exports one query as <name>.json and a scope as exported_queries.zip, which imports back', async () => {
    const id = (await request(t.app).get('/api/v2/saved-queries?name=one').set(auth())).body.data[0].id;
    const one = await request(t.app).get(`/api/v2/saved-queries/${id}/export`).set(auth()).buffer(true).parse(binary);
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toBe('application/octet-stream');
    expect(one.headers['content-disposition']).toBe('attachment; filename="one.json"');
    expect(JSON.parse((one.body as Buffer).toString())).toEqual({ query: 'MATCH (n:User) RETURN n', name: 'one', description: 'd' });
    const other = await userWithRole(t, 'User', 'outsider');
    expectWrapper(
      await request(t.app)
        .get(`/api/v2/saved-queries/${id}/export`)
        .set({ Authorization: `Bearer ${other.jwt}` }),
      404,
    );

    const all = await request(t.app).get('/api/v2/saved-queries/export?scope=all').set(auth()).buffer(true).parse(binary);
    expect(all.status).toBe(200);
    expect(all.headers['content-disposition']).toBe('attachment; filename="exported_queries.zip"');
    const files = await unzip(all.body as Buffer);
    const mine = await names();
    expect(Object.keys(files).sort()).toEqual(mine.map((n: string) => `${n}.json`).sort());
    expect(JSON.parse(files['one.json']!)).toEqual({ query: 'MATCH (n:User) RETURN n', name: 'one', description: 'd' });

    // the zip imports back for another user, whole
    const back = await request(t.app)
      .post('/api/v2/saved-queries/import')
      .set({ Authorization: `Bearer ${other.jwt}` })
      .set('Content-Type', 'application/zip')
      .send(all.body as Buffer);
    expect(back.body).toEqual({ data: `imported ${mine.length} queries` });

    expect(expectWrapper(await request(t.app).get('/api/v2/saved-queries/export').set(auth()), 400).message).toBe(
      'scope query parameter cannot be empty',
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/saved-queries/export?scope=everything').set(auth()), 400).message).toBe(
      'invalid scope param: everything',
    );
  });

  it('refuses hostile and malformed bodies with a 4xx and stores nothing (all or nothing)', async () => {
    const before = await names();
    const bomb = await zipOf([['bomb.json', Buffer.alloc(40 * 1024 * 1024, 0x20)]]);
    expect(bomb.length).toBeLessThan(256 * 1024);
    const cases: [string | Buffer, string, number, RegExp?][] = [
      ['', 'application/json', 400, /cannot be empty/],
      ['{"name": "x", "query": ', 'application/json', 400, /failed to unmarshal json file/],
      [JSON.stringify({ name: 5, query: 'RETURN 1' }), 'application/json', 400, /"name" must be a string/],
      [JSON.stringify({ name: 'no query' }), 'application/json', 400, /"query" is required/],
      [JSON.stringify([{ name: 'good', query: 'RETURN 1' }, { name: 'bad' }]), 'application/json', 400, /#1: "query" is required/],
      [
        JSON.stringify([
          { name: 'twice', query: 'RETURN 1' },
          { name: 'twice', query: 'RETURN 2' },
        ]),
        'application/json',
        400,
        /duplicate name/,
      ],
      [JSON.stringify({ name: 'one', query: 'RETURN 1' }), 'application/json', 400, /duplicate name for saved query/],
      ['name: [unclosed\nquery: x', 'application/yaml', 400, /invalid YAML at line/],
      [
        'a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\nname: laughs\nquery: RETURN 1',
        'application/yaml',
        400,
        /alias/i,
      ],
      [Buffer.from('PK\u0003\u0004not really a zip'), 'application/zip', 400, /not a valid zip file/],
      [bomb, 'application/zip', 413, /unpacks to more than/],
      [await zipOf([['empty.txt', 'x']]), 'application/zip', 400, /no queries found/],
      [
        JSON.stringify([
          { name: 'fine', query: 'RETURN 1' },
          { name: 'unparsable', query: 'MATCH (n RETURN n' },
        ]),
        'application/json',
        400,
        /#1: .*line 1/,
      ],
      ['<html></html>', 'text/html', 415, /Content type must be/],
      ['x'.repeat(300 * 1024), 'application/json', 413],
    ];
    for (const [body, type, status, message] of cases) {
      const res = await importBody(body, type);
      const err = expectWrapper(res, status);
      if (message) expect(err.message).toMatch(message);
    }
    expect(await names()).toEqual(before);
  });
});

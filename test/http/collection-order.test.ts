import { dataFirst } from '../helpers/data-first';
import { useTestApp } from '../helpers/app';
import { inDomain, sharphound, uploadJob, useUploads } from '../helpers/upload';
import { zip } from '../helpers/zip';

/**
 * A collection's files are ingested users, computers and groups first, whatever order they come in, so group
 * members are found in place instead of being created as placeholders that the users' file then rewrites. Which
 * transaction last wrote a node row (its xmin) shows the order: a user ingested before its group keeps the row its
 * own file inserted; ingested after, it rewrites the placeholder the group's file made.
 */
describe('the order a collection is ingested in', () => {
  // Room for an archive of 4,097 entries (the default allows 1,000): what is tested here is the read-ahead's bound.
  const t = useTestApp({ archiveLimits: { maxArchiveEntries: 5_000, maxDecompressedBytes: 1 << 30, maxExpansionRatio: 1_000 } });
  const uploads = useUploads(t);
  const props = inDomain('ORDER.LOCAL', 'S-1-5-21-70-70-70');

  /** Files of one group with one user in it; `n` keeps the object ids of each test apart. */
  const collection = (n: number) => {
    const user = `S-1-5-21-70-70-70-${n}01`;
    const group = `S-1-5-21-70-70-70-${n}02`;
    return {
      user,
      group,
      groups: sharphound('groups', [
        { ObjectIdentifier: group, Properties: props(`GROUP${n}`), Members: [{ ObjectIdentifier: user, ObjectType: 'User' }], Aces: [] },
      ]),
      users: sharphound('users', [{ ObjectIdentifier: user, Properties: props(`USER${n}`), Aces: [] }]),
    };
  };

  /** Which of the two rows was written last: the transaction ids of the rows' last writers. */
  const lastWriters = async (...objectids: string[]) =>
    (
      await t.testDb.db.query<{ objectid: string; tx: string }>(
        'select objectid, xmin::text as tx from graph_nodes where objectid = any($1::text[])',
        [objectids],
      )
    ).reduce<Record<string, number>>((m, r) => ({ ...m, [r.objectid]: Number(r.tx) }), {});

  it("ingests a job's users file before its groups file, uploaded the other way round", async () => {
    const c = collection(1);
    // The groups file is named for its type; the users file is known by its meta, at its end as SharpHound writes it.
    const id = await uploadJob(t.app, uploads.token, [
      ['20261128_groups.json', c.groups],
      ['upload.json', dataFirst(c.users)],
    ]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0 });
    const tx = await lastWriters(c.user, c.group);
    expect(tx[c.user]).toBeLessThan(tx[c.group]!);
    const member = await t.testDb.db.query<{ n: number }>(
      `select count(*)::int as n from graph_edges e join graph_nodes s on s.id = e.start_id join graph_nodes g on g.id = e.end_id
       where s.objectid = $1 and g.objectid = $2`,
      [c.user, c.group],
    );
    expect(member[0]!.n).toBe(1);
  });

  it("ingests a zip's users entry before its groups entry, and records the parts in that order", async () => {
    const c = collection(2);
    const archive = await zip([
      ['20261128_groups.json', c.groups],
      ['20261128_ous.json', sharphound('ous', [])],
      ['20261128_users.json', c.users],
    ]);
    const id = await uploadJob(t.app, uploads.token, [['collection.zip', archive, 'application/zip']]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0 });
    const [task] = await uploads.tasks(id);
    expect(task.result.map((r: { type: string }) => r.type)).toEqual(['users', 'groups', 'ous']);
    const tx = await lastWriters(c.user, c.group);
    expect(tx[c.user]).toBeLessThan(tx[c.group]!);
  });

  it('takes a zip whose directory is too large to read ahead in archive order, and still ingests it', async () => {
    const c = collection(3);
    // 4,097 entries in all (the read-ahead stops at 4,096); the text files among them are skipped as always.
    const filler: [string, string][] = Array.from({ length: 4095 }, (_, i) => [`notes/${i}.txt`, 'x']);
    const archive = await zip([['20261128_groups.json', c.groups], ...filler, ['20261128_users.json', c.users]]);
    const id = await uploadJob(t.app, uploads.token, [['big.zip', archive, 'application/zip']]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0 });
    const [task] = await uploads.tasks(id);
    expect(task.result.map((r: { type: string }) => r.type)).toEqual(['groups', 'users']);
    const tx = await lastWriters(c.user, c.group);
    expect(tx[c.user]).toBeGreaterThan(tx[c.group]!);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { signed, useTestApp } from '../helpers/app';
import { dumpGraph, edgeKey, SHARED_FIXTURES } from '../helpers/fixtures';
import { uploadJob, useUploads } from '../helpers/upload';

/**
 * BloodHound's own collections that are not TESTLAB's v6 files: the v5 format, and a v6 collection with ADCS objects.
 * Uploaded through the signed REST API as a collector would, ingested and analysed by the data pipeline.
 */
const V5 = path.join(SHARED_FIXTURES, 'sharphound-v5-testlab');
const V6_ALL = path.join(SHARED_FIXTURES, 'sharphound-v6-all');
const EXPECTED_V6_ALL = path.join(SHARED_FIXTURES, 'bloodhound-expected', 'v6-all-ingest-edges.json');
const filesOf = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(dir, f));

const ESC1_DOMAIN = 'S-1-5-21-909015691-3030120388-2582151266';
/** The users BloodHound's analysed graphs of ESC1.LOCAL give ADCSESC1 (graphify-v6-adcs-analysis-edges.json). */
const ESC1_USERS = [1105, 1110, 1113];

describe("BloodHound's v5 and v6 ADCS collections through the upload API", () => {
  const t = useTestApp();
  const uploads = useUploads(t);

  /** The graph's edges of one kind, as `start -[Kind]-> end` by object id, sorted. */
  const edges = async (kind: string) => [...(await dumpGraph(t.testDb.db)).edges.keys()].filter((k) => k.includes(` -[${kind}]-> `)).sort();
  const esc1Edge = (rid: number | string, kind: string) => edgeKey(`${ESC1_DOMAIN}-${rid}`, ESC1_DOMAIN, kind);

  it('ingests the v5 files of TESTLAB.LOCAL, object by object', async () => {
    const id = await uploadJob(t.app, uploads.token, filesOf(V5));
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, total_files: 6, failed_files: 0 });
    const objects = Object.fromEntries(
      ((await uploads.tasks(id)) as { file_name: string; result: { objects: number }[] }[]).map((f) => [f.file_name, f.result[0]!.objects]),
    );
    expect(objects).toEqual({
      'computers.json': 4,
      'deleted.json': 6,
      'domains.json': 1,
      'groups.json': 30,
      'sessions.json': 1,
      'users.json': 16,
    });
    const domains = await signed(t.app, uploads.token, 'GET', '/api/v2/available-domains');
    expect(domains.body.data).toContainEqual(
      expect.objectContaining({ name: 'TESTLAB.LOCAL', id: 'S-1-5-21-3130019616-2776909439-2417379446', collected: true }),
    );
  });

  it('ingests the v6 ADCS collection of ESC1.LOCAL and finds what BloodHound finds in it', async () => {
    const id = await uploadJob(t.app, uploads.token, filesOf(V6_ALL));
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, total_files: 12, failed_files: 0 });
    // Every edge BloodHound's own ingest test expects of these files (expected_ingest_adcs.go, 382 of them: ACEs,
    // containment, PublishedTo, HostsCAService, …), between nodes of the kinds it names.
    const graph = await dumpGraph(t.testDb.db);
    const present = ([sk, s, k, ek, e]: string[]) =>
      graph.edges.has(edgeKey(s!, e!, k!)) && !!graph.nodes.get(s!)?.kinds.includes(sk!) && !!graph.nodes.get(e!)?.kinds.includes(ek!);
    const expected = (JSON.parse(fs.readFileSync(EXPECTED_V6_ALL, 'utf8')) as { edges: string[][] }).edges;
    expect(expected).toHaveLength(382);
    expect(expected.filter((e) => !present(e))).toEqual([]);
    // The CA chain reaches the domain (its host gets GoldenCert), and the templates are published to the CA.
    expect(await edges('GoldenCert')).toEqual([esc1Edge(1000, 'GoldenCert')]);
    expect((await edges('PublishedTo')).length).toBe(12);
    expect((await edges('TrustedForNTAuth')).length).toBe(1);
    // Enroll on the ESC1 template and on the CA, directly or through a group: JONES (1105) on both; SMITH (1110) on
    // the template and through GROUP 3 on the CA; GARCIA (1113) through GROUP 1 on the template and on the CA.
    // DAVIS (1112) may enrol on the template only, MILLER (1111) on the CA only.
    expect(await edges('ADCSESC1')).toEqual(ESC1_USERS.map((rid) => esc1Edge(rid, 'ADCSESC1')));
  });

  it('keeps the users in ESC1 when the templates say they require a DNS name (the enrollee supplies the subject)', async () => {
    // On the graph the test above left: only the templates are uploaded again, now requiring DNS names.
    const file = path.join(V6_ALL, 'certtemplates.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { data: { Properties: Record<string, unknown> }[] };
    for (const tpl of doc.data) Object.assign(tpl.Properties, { subjectaltrequiredns: true, subjectaltrequiredomaindns: true });
    const id = await uploadJob(t.app, uploads.token, [['certtemplates.json', JSON.stringify(doc)]]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0 });
    expect(await edges('ADCSESC1')).toEqual(ESC1_USERS.map((rid) => esc1Edge(rid, 'ADCSESC1')));
  });
});

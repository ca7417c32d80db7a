import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalysis } from '../../src/analysis/run';
import { startEmbedded, type EmbeddedDatabase } from '../../src/db/embedded';
import { migrate } from '../../src/db/migrate';
import { Database, type Queryable } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { createLogger } from '../../src/logger';
import { AZUREHOUND, comparable, dumpGraph, GOLDEN_INPUT, SHARED_FIXTURES, TESTLAB_FILES, type GoldenGraph } from './fixtures';

/**
 * The scenarios of test/db/embedded-copy-in.test.ts, run in a plain Node process (PGlite's loader cannot run in
 * Jest's sandbox) against an in-process PGlite: prints what each saw as one JSON object.
 */
const log = createLogger('silent');
let embedded: EmbeddedDatabase;
const open: Database[] = [];

/** A migrated schema of the embedded database, with or without the in-process COPY. */
async function database(schema: string, copyIn: boolean): Promise<Database> {
  const boot = new Database(embedded.url, { log });
  await boot.query(`create schema ${schema}`);
  await boot.close();
  const db = new Database(embedded.url, {
    log,
    searchPath: schema,
    ...(copyIn && { inProcess: embedded }),
  });
  await migrate(db, log);
  open.push(db);
  return db;
}

function lines(g: GoldenGraph): string[] {
  const props = (p: Record<string, unknown>) => JSON.stringify(Object.entries(comparable(p)).sort(([a], [b]) => a.localeCompare(b)));
  return [
    ...[...g.nodes].map(([id, n]) => `node ${id} ${n.kinds.join(',')} ${props(n.properties)}`),
    ...[...g.edges].map(([key, p]) => `edge ${key} ${props(p)}`),
  ].sort();
}

/** Lines of one graph missing from the other, both ways (a few, for the test's message). */
function difference(a: string[], b: string[]): { missing: string[]; extra: string[] } {
  const sa = new Set(a);
  const sb = new Set(b);
  return { missing: a.filter((l) => !sb.has(l)).slice(0, 5), extra: b.filter((l) => !sa.has(l)).slice(0, 5) };
}

const edgeCount = (g: GoldenGraph) => g.edges.size;
const failure = (e: unknown) => ({ name: (e as Error).constructor.name, code: (e as { code?: string }).code });
const COPY = `copy graph_edges (start_id, end_id, kind_id, properties) from stdin`;
/** Every edge as the store's scan for the path index gives it (start, end, kind, flags), by object ids and kind names. */
async function scannedEdges(db: Database): Promise<string[]> {
  const ids = new Map(
    (await db.query<{ id: number; objectid: string }>('select id, objectid from graph_nodes')).map((r) => [r.id, r.objectid]),
  );
  const kinds = new Map((await db.query<{ id: number; name: string }>('select id, name from graph_kinds')).map((r) => [r.id, r.name]));
  const edges: string[] = [];
  await new PgGraphStore(db).scanEdges((b) => {
    for (let i = 0; i < b.start.length; i++)
      edges.push(`${ids.get(b.start[i]!)} ${kinds.get(b.kind[i]!)} ${ids.get(b.end[i]!)} ${b.flags[i]}`);
  });
  return edges.sort();
}

/** Whether the session is inside a transaction: there now() stays the same from one statement to the next. */
async function inTransaction(db: Queryable): Promise<boolean> {
  const first = (await db.query<{ t: string }>('select now()::text as t'))[0]!.t;
  await new Promise((r) => setTimeout(r, 5));
  return first === (await db.query<{ t: string }>('select now()::text as t'))[0]!.t;
}

const count = async (db: Database) => (await db.query<{ n: number }>('select count(*)::int as n from graph_edges'))[0]!.n;

/**
 * Values COPY's text format must escape, or that look like its markers (`\N` is its null), in properties and
 * object ids, in a SharpHound users file: what the parameterised path writes as given must come out of the COPY so.
 */
function awkwardFile(): string {
  const domainsid = 'S-1-5-21-1000000000-2000000000-3000000000';
  const awkward = ['back\\slash\\', 'tab\there', 'line\nbreak\r\n', '\\N', 'quote " and \' ', 'Ünïcødé 漢字 🚀', 'x'.repeat(70_000)];
  const user = (rid: number, extra: Record<string, unknown>, aces: unknown[] = []) => ({
    ObjectIdentifier: `${domainsid}-${rid}`,
    Properties: { name: `USER${rid}@AWKWARD.LOCAL`, domain: 'AWKWARD.LOCAL', domainsid, ...extra },
    Aces: aces,
    SPNTargets: [],
    HasSIDHistory: [],
    AllowedToDelegate: [],
    PrimaryGroupSID: `${domainsid}-513`,
    IsDeleted: false,
    IsACLProtected: false,
  });
  const data = [
    user(1101, Object.fromEntries(awkward.map((v, i) => [`description${i}`, v]))),
    user(1102, { description: awkward.join('|'), sidhistory: awkward }, [
      { PrincipalSID: `${domainsid}-1101`, PrincipalType: 'User', RightName: 'GenericAll', IsInherited: false },
    ]),
  ];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gas-awkward-')), 'users.json');
  // Data first, as SharpHound writes it.
  fs.writeFileSync(file, JSON.stringify({ data, meta: { methods: 0, type: 'users', count: data.length, version: 6 } }));
  return file;
}

async function main(): Promise<Record<string, unknown>> {
  const awkward = awkwardFile();
  // Collector files of every kind the writer takes: SharpHound (ours and BloodHound's), AzureHound, OpenGraph.
  const files = [
    ...GOLDEN_INPUT,
    ...TESTLAB_FILES,
    path.join(AZUREHOUND, 'entra.json'),
    path.join(SHARED_FIXTURES, 'opengraph', 'minimal.json'),
    awkward,
  ];
  embedded = await startEmbedded('memory://', log);
  const withCopy = await database('copy_in', true);
  const without = await database('params', false);
  const out: Record<string, unknown> = {
    copyFrom: { with: await withCopy.tx(async (q) => typeof q.copyFrom), without: await without.tx(async (q) => typeof q.copyFrom) },
  };

  const errors: unknown[] = [];
  for (const db of [withCopy, without]) for (const f of files) errors.push(...(await ingestPath(new PgGraphStore(db), f)).errors);
  const ingested = await dumpGraph(withCopy);
  const awkwardNode = ingested.nodes.get('S-1-5-21-1000000000-2000000000-3000000000-1102');
  out.awkward = {
    description: awkwardNode?.properties.description,
    edge:
      ingested.edges.size > 0 &&
      [...ingested.edges.keys()].some((k) => k.includes('-1101 -[GenericAll]-> S-1-5-21-1000000000-2000000000-3000000000-1102')),
  };
  out.ingest = { errors, edges: edgeCount(ingested), difference: difference(lines(await dumpGraph(without)), lines(ingested)) };

  // COPY out (the index build's and analysis's edge scans): the rows a select gives, and no transaction left open.
  const sql = 'copy (select id, start_id, end_id, kind_id from graph_edges order by id) to stdout';
  const chunks: Buffer[] = [];
  const copiedOut = {
    with: await withCopy.copyOut(sql, (c) => chunks.push(Buffer.from(c))),
    without: await without.copyOut(sql, () => {}),
  };
  const selected = await withCopy.query<{ id: number; start_id: number; end_id: number; kind_id: number }>(
    'select id, start_id, end_id, kind_id from graph_edges order by id',
  );
  const text = selected.map((r) => `${r.id}\t${r.start_id}\t${r.end_id}\t${r.kind_id}\n`).join('');
  const failed = await withCopy.copyOut('copy (select no_such_column from graph_edges) to stdout', () => {}).then(() => 'copied', failure);
  out.copyOut = {
    copiedOut,
    sameAsSelect: Buffer.concat(chunks).toString() === text,
    failed,
    inTransaction: await inTransaction(withCopy),
    // the check itself, where a transaction is open
    inTransactionInTx: await withCopy.tx((q) => inTransaction(q)),
  };

  // The path index's edge scan: by COPY with it, by pages without; the same edges either way.
  const scanned = { with: await scannedEdges(withCopy), without: await scannedEdges(without) };
  out.edgeScan = { edges: scanned.with.length, same: JSON.stringify(scanned.with) === JSON.stringify(scanned.without) };

  // Again: every edge exists, so the direct COPY fails on the unique index, is rolled back to its savepoint and the
  // rows are merged instead (the bulk writer's conflict path).
  const again: unknown[] = [];
  for (const f of files) again.push(...(await ingestPath(new PgGraphStore(withCopy), f)).errors);
  out.again = { errors: again, difference: difference(lines(ingested), lines(await dumpGraph(withCopy))) };

  // Analysis writes its derived edges by COPY behind its rules.
  for (const db of [withCopy, without]) await runAnalysis(new PgGraphStore(db));
  const analysed = await dumpGraph(withCopy);
  out.analysis = { edges: edgeCount(analysed), difference: difference(lines(await dumpGraph(without)), lines(analysed)) };

  // Inside its transaction: rolled back with it, unseen by another connection until the commit.
  const iso = await database('isolation', true);
  await iso.query(`insert into graph_kinds (name) values ('MemberOf')`);
  let copied: number | undefined;
  const rolledBack = await iso
    .tx(async (q) => {
      copied = await q.copyFrom!(COPY, ['1\t2\t1\t{}\n', '2\t3\t1\t{}\n']);
      throw new Error('a later step fails');
    })
    .catch((e: Error) => e.message);
  const afterRollback = await count(iso);
  let reader: Promise<number> | undefined;
  await iso.tx(async (q) => {
    await q.copyFrom!(COPY, ['1\t2\t1\t{}\n']);
    reader = count(iso); // another connection: it waits for the session until this transaction ends
    await new Promise((r) => setTimeout(r, 50));
  });
  const readerSaw = await reader;
  // A COPY asked of a transaction that has ended fails rather than run in whatever holds the session then.
  let kept: ((sql: string, chunks: string[]) => Promise<number>) | undefined;
  await iso.tx(async (q) => void (kept = q.copyFrom!));
  const late = await kept!(COPY, ['3\t4\t1\t{}\n']).then(() => 'copied', failure);
  out.isolation = { copied, rolledBack, afterRollback, readerSaw, late, afterLate: await count(iso) };

  // Errors of the database as the service's own, and the transaction going on after a savepoint.
  const errs = await database('errors', true);
  await errs.query(`insert into graph_kinds (name) values ('MemberOf')`);
  out.errors = await errs.tx(async (q) => {
    await q.copyFrom!(COPY, ['1\t2\t1\t{}\n']);
    await q.query('savepoint s');
    const duplicate = await q.copyFrom!(COPY, ['1\t2\t1\t{}\n']).then(() => 'copied', failure);
    await q.query('rollback to savepoint s');
    const malformed = await q.copyFrom!(COPY, ['one\t2\t1\t{}\n']).then(() => 'copied', failure);
    await q.query('rollback to savepoint s');
    await q.copyFrom!(COPY, ['2\t1\t1\t{}\n']);
    return { duplicate, malformed };
  });
  (out.errors as Record<string, unknown>).committed = await count(errs);
  fs.rmSync(path.dirname(awkward), { recursive: true, force: true });
  return out;
}

main()
  .then(async (out) => {
    for (const db of open) await db.close();
    await embedded.stop();
    process.stdout.write(JSON.stringify(out));
  })
  .catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });

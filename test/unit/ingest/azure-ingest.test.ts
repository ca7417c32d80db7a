import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PgGraphStore } from '../../../src/graph/pg/store';
import { ingestPath } from '../../../src/ingest/ingest-path';
import { IngestError, ingestStream } from '../../../src/ingest/ingest-stream';
import { useGraphDb } from '../../helpers/graph';
import { AZUREHOUND, AZURE_UNKNOWN_KINDS, comparable, dumpGraph, edgeKey, loadGolden } from '../../helpers/fixtures';

/**
 * AzureHound files through the real ingest stack into PostgreSQL: both key orders give the same graph, BloodHound's
 * own federated-credential golden graph is reproduced, unknown kinds are reported per file, and bad files fail
 * alone with a message.
 */
const DIR = AZUREHOUND;
const FIC = path.join(DIR, 'bloodhound-fic');

/** The same file with "meta" moved before or after "data" (AzureHound writes data first). */
function reordered(file: string, first: 'meta' | 'data'): Buffer {
  const { data, meta } = JSON.parse(fs.readFileSync(file, 'utf8'));
  return Buffer.from(JSON.stringify(first === 'meta' ? { meta, data } : { data, meta }));
}

const ingestBuffer = (store: PgGraphStore, name: string, body: Buffer) => ingestStream(store, name, Readable.from([body]));

const sorted = (p: Record<string, unknown>) => Object.entries(comparable(p)).sort(([a], [b]) => a.localeCompare(b));

describe('AzureHound ingest into the graph', () => {
  const graph = useGraphDb({ per: 'test' });

  it("reproduces BloodHound's golden graph for its federated identity credential file", async () => {
    const res = await ingestPath(graph.store(), path.join(FIC, 'federated_identity_credentials.json'));
    expect(res.errors).toEqual([]);
    expect(res.files[0]).toMatchObject({ type: 'azure', objects: 7, unknownKinds: {} });
    const ours = await dumpGraph(graph.db());
    const golden = loadGolden({ path: path.join(FIC, 'ingested.json') });
    expect([...ours.nodes.keys()].sort()).toEqual([...golden.nodes.keys()].sort());
    for (const [id, n] of golden.nodes) {
      expect({ id, kinds: ours.nodes.get(id)!.kinds }).toEqual({ id, kinds: n.kinds });
      expect({ id, props: sorted(ours.nodes.get(id)!.properties) }).toEqual({ id, props: sorted(n.properties) });
    }
    expect([...ours.edges.keys()].sort()).toEqual([...golden.edges.keys()].sort());
    for (const [key, p] of golden.edges) expect({ key, props: sorted(ours.edges.get(key)!) }).toEqual({ key, props: sorted(p) });
  });

  it.each(['entra.json', 'resources.json', 'unknown-and-malformed.json'])(
    '%s: data-first and meta-first give the same graph',
    async (file) => {
      const now = new Date('2026-01-01T00:00:00Z');
      const a = await ingestStream(graph.store(), file, Readable.from([reordered(path.join(DIR, file), 'data')]), { now });
      const first = await dumpGraph(graph.db());
      const b = await ingestStream(graph.store(), file, Readable.from([reordered(path.join(DIR, file), 'meta')]), { now });
      const second = await dumpGraph(graph.db());
      expect(b).toEqual(a);
      expect([...second.nodes.entries()].sort()).toEqual([...first.nodes.entries()].sort());
      expect([...second.edges.entries()].sort()).toEqual([...first.edges.entries()].sort());
      expect(first.nodes.size).toBeGreaterThan(0);
    },
  );

  it('writes the Entra and Resource Manager graph and reports what it did not convert', async () => {
    const res = await Promise.all(
      ['entra.json', 'resources.json', 'unknown-and-malformed.json'].map((f) => ingestPath(graph.store(), path.join(DIR, f))),
    );
    expect(res.flatMap((r) => r.errors)).toEqual([]);
    const [entra, rm, other] = res.map((r) => r.files[0]!);
    expect(entra).toMatchObject({ type: 'azure', objects: 29, unknownKinds: { 'AZGroupMember (member of an unsupported type)': 1 } });
    expect(rm).toMatchObject({ type: 'azure', objects: 39, unknownKinds: {} });
    expect(other!.unknownKinds).toEqual(AZURE_UNKNOWN_KINDS);
    const g = await dumpGraph(graph.db());
    const T = '6C12B0B0-B2CC-4A73-8252-0B94BFCA2145';
    // A role assignment references the role by ROLEID@TENANT, the same node the role record and PIM records write.
    expect(g.nodes.get(`62E90394-69F5-4237-9190-012177145E10@${T}`)!.kinds).toEqual(['AZBase', 'AZRole']);
    expect(g.edges.has(edgeKey('1D8A4C57-5B1F-4C3E-9F59-0F8F9D3F0A11', `62E90394-69F5-4237-9190-012177145E10@${T}`, 'AZHasRole'))).toBe(
      true,
    );
    // Endpoints only referenced get their kind (the synced AD user, the node resource group of the cluster).
    expect(g.nodes.get('S-1-5-21-1004336348-1177238915-682003330-1105')!.kinds).toEqual(['Base', 'User']);
    const nodeRg = '/SUBSCRIPTIONS/B1B9D0EA-1A2C-4D2E-9A6F-3F1F2A7C9E01/RESOURCEGROUPS/MC_PROD-RG_AKS-01_WESTEUROPE';
    expect(g.nodes.get(nodeRg)!.kinds).toEqual(['AZBase', 'AZResourceGroup']);
    // Every node carries AZBase (Azure) or Base (Active Directory).
    for (const [id, n] of g.nodes) expect({ id, base: n.kinds.some((k) => k === 'AZBase' || k === 'Base') }).toEqual({ id, base: true });
  });

  it('fails a file cut short, with its name and place, and writes nothing of it', async () => {
    const body = fs.readFileSync(path.join(DIR, 'entra.json'));
    const cut = body.subarray(0, Math.floor(body.length / 2));
    await expect(ingestBuffer(graph.store(), 'entra-cut.json', cut)).rejects.toBeInstanceOf(IngestError);
    await expect(ingestBuffer(graph.store(), 'entra-cut.json', cut)).rejects.toThrow(/^entra-cut\.json: /);
    expect((await dumpGraph(graph.db())).nodes.size).toBe(0);
  });

  it('refuses a file without meta, or of another type, naming the file', async () => {
    const { data } = JSON.parse(fs.readFileSync(path.join(DIR, 'entra.json'), 'utf8'));
    await expect(ingestBuffer(graph.store(), 'nometa.json', Buffer.from(JSON.stringify({ data })))).rejects.toThrow(
      /nometa\.json: no valid meta tag/,
    );
    await expect(ingestBuffer(graph.store(), 'odd.json', Buffer.from(JSON.stringify({ data, meta: { type: 'azurex' } })))).rejects.toThrow(
      /odd\.json: unsupported file type/,
    );
  });

  it('ingesting the same files again changes nothing but timestamps', async () => {
    for (const f of ['entra.json', 'resources.json']) await ingestPath(graph.store(), path.join(DIR, f));
    const before = await dumpGraph(graph.db());
    for (const f of ['entra.json', 'resources.json']) await ingestPath(graph.store(), path.join(DIR, f));
    const after = await dumpGraph(graph.db());
    expect([...after.nodes.keys()].sort()).toEqual([...before.nodes.keys()].sort());
    expect([...after.edges.keys()].sort()).toEqual([...before.edges.keys()].sort());
    for (const [id, n] of before.nodes) expect(sorted(after.nodes.get(id)!.properties)).toEqual(sorted(n.properties));
  });
});

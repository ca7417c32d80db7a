import fs from 'node:fs';
import path from 'node:path';
import type { EdgeInput, NodeInput } from '../../../src/graph/model';
import { convertAzure } from '../../../src/ingest/azure';
import { AZUREHOUND } from '../../helpers/fixtures';

/**
 * The AzureHound converters run record by record over a file of test/fixtures/azurehound, and the object ids those
 * files use: what azure.test.ts (Entra ID) and azure-resources.test.ts (Resource Manager) assert on.
 */
export const NOW = '2026-01-01T00:00:00.000Z';
export const T = '6C12B0B0-B2CC-4A73-8252-0B94BFCA2145';
export const U1 = '1D8A4C57-5B1F-4C3E-9F59-0F8F9D3F0A11';
export const U2 = '2E9B5D68-6C20-4D4F-8A6A-1A9A0E4A1B22';
export const U3 = '3FAC6E79-7D31-4E50-9B7B-2BAB1F5B2C33';
export const G1 = '4ABD7F8A-8E42-4F61-8C8C-3CBC2A6C3D44';
export const G2 = '5BCE809B-9F53-4072-9D9D-4DCD3B7D4E55';
export const APP = '6CDF91AC-A064-4183-8EAE-5EDE4C8E5F66';
export const SP = '8EF1B3CE-C286-43A5-A0C0-7A0A6EAA7B88';
export const GRAPHSP = '9F02C4DF-D397-44B6-B1D1-8B1B7FBB8C99';
export const DEV = 'A013D5E0-E4A8-45C7-82E2-9C2C80CC9DAA';
export const GA = '62E90394-69F5-4237-9190-012177145E10';
export const PRA = 'E8611AB8-C189-46E8-94E1-60213AB1F814';
export const APPADM = '9B895D92-2CD3-44C7-9D02-A6AC2D5EA5C3';
export const SUB = '/SUBSCRIPTIONS/B1B9D0EA-1A2C-4D2E-9A6F-3F1F2A7C9E01';
export const RG = `${SUB}/RESOURCEGROUPS/PROD-RG`;
export const MG = '/PROVIDERS/MICROSOFT.MANAGEMENT/MANAGEMENTGROUPS/CONTOSO-ROOT';
export const MG2 = '/PROVIDERS/MICROSOFT.MANAGEMENT/MANAGEMENTGROUPS/CONTOSO-PROD';
export const KV = `${RG}/PROVIDERS/MICROSOFT.KEYVAULT/VAULTS/PROD-KV`;
export const VM = `${RG}/PROVIDERS/MICROSOFT.COMPUTE/VIRTUALMACHINES/WEB-01`;
export const MI = 'B124E6F1-F5B9-46D8-93F3-AD3D91DD0EBB';
export const UAMI = 'C235F702-06CA-47E9-A404-BE4EA2EE1FCC';

export interface Out {
  nodes: Map<string, NodeInput>;
  edges: Map<string, EdgeInput>;
  unknown: Record<string, number>;
  byKind: Map<string, { nodes: NodeInput[]; edges: EdgeInput[] }>;
}

export function convertFile(file: string): Out {
  const { data } = JSON.parse(fs.readFileSync(path.join(AZUREHOUND, file), 'utf8'));
  const out: Out = { nodes: new Map(), edges: new Map(), unknown: {}, byKind: new Map() };
  for (const item of data) {
    const c = convertAzure(item, NOW);
    const kind = (item as { kind?: string }).kind ?? '?';
    const k = out.byKind.get(kind) ?? { nodes: [], edges: [] };
    out.byKind.set(kind, k);
    k.nodes.push(...c.nodes);
    k.edges.push(...c.edges);
    for (const n of c.nodes) {
      const seen = out.nodes.get(n.objectid);
      out.nodes.set(
        n.objectid,
        seen ? { ...n, kinds: [...new Set([...seen.kinds, ...n.kinds])], properties: { ...seen.properties, ...n.properties } } : n,
      );
    }
    for (const e of c.edges) out.edges.set(`${e.start} -[${e.kind}]-> ${e.end}`, e);
    if (c.unknownKind) out.unknown[c.unknownKind] = (out.unknown[c.unknownKind] ?? 0) + 1;
  }
  return out;
}

export const edgesOf = (o: Out, kind: string) => (o.byKind.get(kind)?.edges ?? []).map((e) => `${e.start} -[${e.kind}]-> ${e.end}`).sort();

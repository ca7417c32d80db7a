import request from 'supertest';
import { PREBUILT_QUERIES } from '../../src/services/queries/prebuilt/index';
import type { TestApp } from './app';

/**
 * Runs a pre-built query by id through POST /api/v2/graphs/cypher and answers the object ids of the nodes in its
 * result (BloodHound's empty answer, a 404, is the empty set; anything else failing fails the test).
 */
export async function answerOf(t: TestApp & { adminJwt: string }, id: string): Promise<string[]> {
  const q = PREBUILT_QUERIES.find((x) => x.id === id);
  if (!q) throw new Error(`no pre-built query ${id}`);
  const res = await request(t.app).post('/api/v2/graphs/cypher').set('Authorization', `Bearer ${t.adminJwt}`).send({ query: q.query });
  if (res.status === 404) return [];
  if (res.status !== 200) throw new Error(`${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return [...new Set(Object.values(res.body.data.nodes as Record<string, { objectId: string }>).map((n) => n.objectId))].sort();
}

/** A small graph with BloodHound's semantics for expectations: nodes by object id, edges by kind. */
export class FixtureGraph {
  readonly nodes = new Map<string, { kinds: string[]; properties: Record<string, unknown> }>();
  readonly out = new Map<string, { kind: string; end: string }[]>();
  readonly edges: { start: string; end: string; kind: string }[] = [];

  addNode(id: string, kinds: string[], properties: Record<string, unknown>): void {
    this.nodes.set(id, { kinds, properties });
  }
  addEdge(start: string, end: string, kind: string): void {
    this.edges.push({ start, end, kind });
    const list = this.out.get(start) ?? [];
    list.push({ kind, end });
    this.out.set(start, list);
  }
  is = (id: string, kind: string) => this.nodes.get(id)?.kinds.includes(kind) ?? false;
  prop = (id: string, key: string) => this.nodes.get(id)?.properties[key];
  ofKind = (kind: string) => [...this.nodes.keys()].filter((id) => this.is(id, kind));
  /** Nodes reachable from `from` over edges of `kinds` in one or more steps. */
  reachable(from: string, kinds: ReadonlySet<string>): Set<string> {
    const seen = new Set<string>();
    const queue = [from];
    while (queue.length) {
      for (const e of this.out.get(queue.pop()!) ?? []) {
        if (kinds.has(e.kind) && !seen.has(e.end)) {
          seen.add(e.end);
          queue.push(e.end);
        }
      }
    }
    return seen;
  }
  /** The nodes of the one-hop pattern (a)-[kinds]->(b) with the endpoint tests, as a path query returns them. */
  hop(kinds: readonly string[], start: (id: string) => boolean, end: (id: string) => boolean): string[] {
    const out = new Set<string>();
    for (const e of this.edges)
      if (kinds.includes(e.kind) && start(e.start) && end(e.end)) {
        out.add(e.start);
        out.add(e.end);
      }
    return [...out].sort();
  }
}

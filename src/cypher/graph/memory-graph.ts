import type { Direction } from '../model/ast.js';
import { RelV, type MapValue, type Value } from '../execute/values.js';
import type { CypherGraph, Step } from './graph.js';

interface MemNode {
  labels: Set<string>;
  properties: MapValue;
  out: number[];
  in: number[];
}

interface MemRel {
  rel: RelV;
  properties: MapValue;
}

/**
 * A graph held in plain maps: the TCK's scenarios build one per scenario through its write path (`createNode`,
 * `createRelationship`), which only the test-side set-up reaches; the service's queries never write.
 */
export class MemoryGraph implements CypherGraph {
  private readonly nodeList: MemNode[] = [];
  private readonly rels: MemRel[] = [];

  createNode(labels: readonly string[], properties: MapValue): number {
    this.nodeList.push({ labels: new Set(labels), properties: clean(properties), out: [], in: [] });
    return this.nodeList.length - 1;
  }

  createRelationship(start: number, end: number, type: string, properties: MapValue): RelV {
    const rel = new RelV(this.rels.length, start, end, type);
    this.rels.push({ rel, properties: clean(properties) });
    this.nodeList[start]!.out.push(rel.id);
    this.nodeList[end]!.in.push(rel.id);
    return rel;
  }

  *nodes(): Iterable<number> {
    for (let i = 0; i < this.nodeList.length; i++) yield i;
  }

  nodeCount(): number {
    return this.nodeList.length;
  }

  *nodesWithLabel(label: string): Iterable<number> {
    for (let i = 0; i < this.nodeList.length; i++) if (this.nodeList[i]!.labels.has(label)) yield i;
  }

  labelCount(label: string): number {
    return this.nodeList.filter((n) => n.labels.has(label)).length;
  }

  hasLabel(node: number, label: string): boolean {
    return this.nodeList[node]!.labels.has(label);
  }

  labels(node: number): string[] {
    return [...this.nodeList[node]!.labels];
  }

  nodeProperty(node: number, key: string): Value {
    return this.nodeList[node]!.properties[key] ?? null;
  }

  nodeProperties(node: number): MapValue {
    return { ...this.nodeList[node]!.properties };
  }

  *expand(node: number, direction: Direction, types: readonly string[] | null): Iterable<Step> {
    const n = this.nodeList[node]!;
    const ok = (r: RelV) => !types || types.includes(r.type);
    if (direction !== 'in') {
      for (const id of n.out) {
        const r = this.rels[id]!.rel;
        if (ok(r)) yield { rel: r, other: r.end };
      }
    }
    if (direction !== 'out') {
      for (const id of n.in) {
        const r = this.rels[id]!.rel;
        // A self-loop is one relationship: met once when both directions are asked for.
        if (ok(r) && !(direction === 'both' && r.start === r.end)) yield { rel: r, other: r.start };
      }
    }
  }

  degree(node: number, direction: Direction): number {
    const n = this.nodeList[node]!;
    return direction === 'out' ? n.out.length : direction === 'in' ? n.in.length : n.out.length + n.in.length;
  }

  relProperty(rel: RelV, key: string): Value {
    return this.rels[rel.id]!.properties[key] ?? null;
  }

  relProperties(rel: RelV): MapValue {
    return { ...this.rels[rel.id]!.properties };
  }
}

/** Properties never hold null: setting one to null leaves it out. */
function clean(properties: MapValue): MapValue {
  const out: MapValue = {};
  for (const [k, v] of Object.entries(properties)) if (v !== null) out[k] = v;
  return out;
}

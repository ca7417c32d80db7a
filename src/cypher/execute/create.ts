import type { LabelExpr, PatternPart } from '../model/ast.js';
import { readOnly, runtimeError } from '../errors.js';
import { isWritable } from '../graph/graph.js';
import { extend, Signal, type ExecContext, type Row, type Stream } from './context.js';
import { evaluate } from './eval.js';
import { isMap, NodeV, PathV, RelV, type MapValue } from './values.js';

/**
 * CREATE, for the TCK's set-up statements on its in-memory graph only: the frontend reads CREATE into the model
 * only when asked to (prepare with testWrites), and any other graph refuses it here as read-only.
 */
export function* create(patterns: PatternPart[], input: Stream, ctx: ExecContext): Stream {
  const g = ctx.graph;
  if (!isWritable(g)) throw readOnly('CREATE');
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    const row: Row = extend(r);
    for (const p of patterns) {
      const nodes: NodeV[] = [];
      const rels: RelV[] = [];
      for (const n of p.nodes) {
        const bound = n.variable ? row[n.variable] : undefined;
        if (bound instanceof NodeV) {
          nodes.push(bound);
          continue;
        }
        const node = new NodeV(g.createNode(labelNames(n.labels), props(n.properties ? evaluate(n.properties, row, ctx) : {})));
        if (n.variable) row[n.variable] = node;
        nodes.push(node);
      }
      p.rels.forEach((rel, i) => {
        const [a, b] = rel.direction === 'in' ? [nodes[i + 1]!, nodes[i]!] : [nodes[i]!, nodes[i + 1]!];
        const created = g.createRelationship(
          a.id,
          b.id,
          rel.types[0] ?? '',
          props(rel.properties ? evaluate(rel.properties, row, ctx) : {}),
        );
        if (rel.variable) row[rel.variable] = created;
        rels.push(created);
      });
      if (p.pathVariable) row[p.pathVariable] = new PathV(nodes, rels);
    }
    yield row;
  }
}

function labelNames(e: LabelExpr | null): string[] {
  if (!e) return [];
  if (e.kind === 'name') return [e.name];
  if (e.kind === 'and') return e.items.flatMap(labelNames);
  throw runtimeError('SemanticError', 'InvalidLabel', 'CREATE takes plain labels');
}

function props(v: unknown): MapValue {
  if (v === null) return {};
  if (!isMap(v as never)) throw runtimeError('TypeError', 'InvalidArgumentType', 'CREATE properties must be a map');
  return v as MapValue;
}

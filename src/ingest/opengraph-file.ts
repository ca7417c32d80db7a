import type { Queryable } from '../db/pool.js';
import type { EdgeInput, NodeInput } from '../graph/model.js';
import { checkMetadata, convertEdge, convertNode, type GraphEdge, type Lookup } from './opengraph.js';
import { Spool } from './spool.js';

/** BloodHound reports at most this many validation errors for one file. */
const MAX_ERRORS = 15;
/** Kinds are small integers in the graph: one file may not mint more than this many. */
const MAX_KINDS = 1000;

const BY_NAME = /* SQL */ `-- opengraph.byName
select n.objectid from graph_nodes n
where n.name = $1 and ($2::text is null or exists (select 1 from graph_kinds k where k.name = $2 and k.id = any(n.kind_ids)))
limit 2`;
const BY_PROPERTIES = /* SQL */ `-- opengraph.byProperties
select n.objectid from graph_nodes n
where n.properties @> $1::jsonb and ($2::text is null or exists (select 1 from graph_kinds k where k.name = $2 and k.id = any(n.kind_ids)))
limit 2`;

const REGISTER_SOURCE_KIND = /* SQL */ `-- opengraph.registerSourceKind
insert into graph_source_kinds (name) values ($1) on conflict (name) do nothing`;

const KIND_OF = /* SQL */ `-- opengraph.kindOf
select n.objectid, k.name as kind from graph_nodes n join graph_kinds k on k.id = n.kind_ids[1] where n.objectid = any($1::text[])`;

/** Thrown when the file breaks the OpenGraph rules; the message lists the problems as BloodHound's validator does. */
export class OpenGraphInvalid extends Error {}

/**
 * The state of one OpenGraph file being ingested: nodes go straight to the caller's batches; edges wait on disk
 * until every node of the file is written, then endpoints matched by name or properties are looked up in the same
 * transaction (one that matches no node, or several, skips the edge and is counted). An id endpoint that is not a
 * node becomes a placeholder node, as for collector files.
 */
export class OpenGraphFile {
  readonly errors: string[] = [];
  readonly skipped: Record<string, number> = {};
  private readonly kinds = new Set<string>();
  private deferred: Spool | undefined;
  /** metadata.source_kind: BloodHound appends it to every node's kinds and registers it as a source kind. */
  private sourceKind: string | undefined;

  constructor(private readonly now: string) {}

  metadata(value: unknown): void {
    const errors = checkMetadata(value);
    this.problems(errors);
    const kind = (value as { source_kind?: unknown } | null)?.source_kind;
    if (!errors.length && typeof kind === 'string' && kind) this.sourceKind = kind;
  }

  node(value: unknown, index: number): NodeInput | undefined {
    const { node, errors } = convertNode(value, index, this.now);
    this.problems(errors);
    if (node && this.sourceKind && !node.kinds.includes(this.sourceKind)) node.kinds.push(this.sourceKind);
    if (node) this.countKinds(node.kinds);
    return this.errors.length ? undefined : node;
  }

  /** Edges wait on disk until every node of the file is written (as BloodHound writes a batch's nodes first). */
  edge(value: unknown, index: number): void {
    const { edge, errors } = convertEdge(value, index, this.now);
    this.problems(errors);
    if (!edge || this.errors.length) return;
    this.countKinds([edge.edge.kind]);
    (this.deferred ??= new Spool()).write(edge);
  }

  /** Records the file's source kind (clear-database deletes by it), in the ingest's transaction. */
  async registerSourceKind(tx: Queryable): Promise<void> {
    if (this.sourceKind) await tx.execute(REGISTER_SOURCE_KIND, [this.sourceKind]);
  }

  /** After the last node is written: the parked edges with their endpoints looked up. */
  async *resolve(tx: Queryable): AsyncGenerator<EdgeInput> {
    if (!this.deferred) return;
    const cache = new Map<string, { id?: string; miss?: string }>();
    const find = async (l: Lookup) => {
      const key = JSON.stringify(l);
      let hit = cache.get(key);
      if (!hit) {
        const rows = l.name
          ? await tx.query<{ objectid: string }>(BY_NAME, [l.name, l.kind ?? null])
          : await tx.query<{ objectid: string }>(BY_PROPERTIES, [
              JSON.stringify(Object.fromEntries(l.matchers!.map((m) => [m.key, m.value]))),
              l.kind ?? null,
            ]);
        hit =
          rows.length === 1
            ? { id: rows[0]!.objectid }
            : { miss: rows.length ? 'endpoint matches several nodes' : 'endpoint matches no node' };
        if (cache.size >= 100_000) cache.clear(); // bounded memory on huge files
        cache.set(key, hit);
      }
      return hit;
    };
    // An id endpoint without a kind takes one the node already has, so writing the edge adds no kind to it.
    const withKinds = async (batch: EdgeInput[]) => {
      const ids = [...new Set(batch.flatMap((e) => [e.startKind ? '' : e.start, e.endKind ? '' : e.end]).filter(Boolean))];
      const rows = ids.length ? await tx.query<{ objectid: string; kind: string }>(KIND_OF, [ids]) : [];
      const kinds = new Map(rows.map((r) => [r.objectid, r.kind]));
      // Object.assign, not a spread followed by more keys (see sharphound.ts).
      return batch.map((e) =>
        Object.assign({}, e, { startKind: e.startKind ?? kinds.get(e.start), endKind: e.endKind ?? kinds.get(e.end) }),
      );
    };
    let batch: EdgeInput[] = [];
    for await (const item of this.deferred.drain()) {
      const { edge, start, end } = item as GraphEdge;
      const s = start ? await find(start) : { id: edge.start };
      const e = end ? await find(end) : { id: edge.end };
      if (s.id && e.id) batch.push({ ...edge, start: s.id, end: e.id });
      else this.skip(`edges skipped: ${s.miss ?? e.miss}`);
      if (batch.length >= 2000) {
        yield* await withKinds(batch);
        batch = [];
      }
    }
    yield* await withKinds(batch);
  }

  dispose(): void {
    this.deferred?.dispose();
  }

  private skip(reason: string): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
  }

  private countKinds(kinds: string[]): void {
    for (const k of kinds) this.kinds.add(k);
    if (this.kinds.size > MAX_KINDS) this.problems([`the file uses more than ${MAX_KINDS} distinct kinds`]);
  }

  private problems(errors: string[]): void {
    if (!errors.length) return;
    this.errors.push(...errors);
    if (this.errors.length >= MAX_ERRORS) throw this.invalid();
  }

  invalid(): OpenGraphInvalid {
    return new OpenGraphInvalid(`failed OpenGraph validation: ${this.errors.slice(0, MAX_ERRORS).join('; ')}`);
  }
}

import type { EdgeInput, NodeInput } from '../graph/model.js';
import { specificKind } from '../graph/pg/merge.js';

/** Edges held back per file at most (~200 bytes each); past it edges go out as they come. */
const MAX_HELD = 100_000;
/** Object ids remembered per file at most; past it new ones count as not seen (their edges are held while room lasts). */
const MAX_SEEN = 250_000;
/** Kinds every collector node carries besides its type: they say nothing of which file an object comes from. */
const SOURCE_KINDS: ReadonlySet<string> = new Set(['Base', 'AZBase']);

/**
 * Holds back, until the end of a file, the edges that point at an object of a type the file holds but whose own
 * item has not come yet (a user's rights over users further down users.json, a group nested in one later in
 * groups.json, most Entra relations). Written as they come, each such endpoint would be created as a placeholder
 * node and rewritten when its item arrives: a second row version and an entry in each of graph_nodes' seven indexes
 * (~17,000 of them in tier M's users.json). Held, the edge finds the node in place at the end of the file, within
 * the same transaction. Endpoints that never come are created as placeholders then, as before.
 *
 * Held edges keep their order among themselves, and an edge with the key (start, end, kind) of a held one is merged
 * into it (its properties over the held one's, as the writer merges two equal edges), so "the later of two equal
 * edges wins" still holds within the file, and a file repeating one edge a million times holds it once. Memory is
 * bounded (MAX_HELD distinct edges, MAX_SEEN ids).
 */
export class HeldEdges {
  private readonly seen = new Set<string>();
  /** Types of the nodes the file has brought so far (User for users.json; many for an AzureHound file). */
  private readonly kinds = new Set<string>();
  private held: EdgeInput[] = [];
  /** Both endpoints of every held edge, and where each held key is: a quick test first, the exact one only when it passes. */
  private readonly touched = new Set<string>();
  private readonly keys = new Map<string, number>();
  /** Edges merged into held ones since the last take(): they count as the file's edges all the same. */
  private repeats = 0;

  /** Records an item's nodes (before its edges are offered: an object's own edges never wait for it). */
  saw(nodes: readonly NodeInput[]): void {
    for (const n of nodes) {
      if (this.seen.size < MAX_SEEN) this.seen.add(n.objectid);
      for (const k of n.kinds) if (!SOURCE_KINDS.has(k)) this.kinds.add(k);
    }
  }

  /** Whether the edge is held (taken) rather than written now. */
  offer(e: EdgeInput): boolean {
    // A repeat of a held edge is merged into it, whatever the bound (the quick test first: most edges touch no held one).
    const at = this.touched.has(e.start) && this.touched.has(e.end) ? this.keys.get(keyOf(e)) : undefined;
    if (at !== undefined) {
      this.held[at] = merged(this.held[at]!, e);
      this.repeats++;
      return true;
    }
    if (this.held.length >= MAX_HELD || !(this.waits(e.start, e.startKind) || this.waits(e.end, e.endKind))) return false;
    this.keys.set(keyOf(e), this.held.length);
    this.held.push(e);
    this.touched.add(e.start);
    this.touched.add(e.end);
    return true;
  }

  /** The held edges, in the order they were held, and how many repeats were merged into them; the holder starts empty. */
  take(): { edges: EdgeInput[]; repeats: number } {
    const taken = { edges: this.held, repeats: this.repeats };
    this.held = [];
    this.repeats = 0;
    this.touched.clear();
    this.keys.clear();
    return taken;
  }

  private waits(objectid: string, kind: string | undefined): boolean {
    return kind !== undefined && this.kinds.has(kind) && !this.seen.has(objectid);
  }
}

const keyOf = (e: EdgeInput) => `${e.start}\n${e.end}\n${e.kind}`;

/**
 * Two equal edges as one, as the writer merges them (graph/pg/merge.ts): the later one's properties over the
 * earlier's, the more specific endpoint kinds kept. A new object: edges may share frozen property sets.
 */
function merged(earlier: EdgeInput, later: EdgeInput): EdgeInput {
  return {
    ...earlier,
    properties: { ...earlier.properties, ...later.properties },
    startKind: specificKind(earlier.startKind, later.startKind),
    endKind: specificKind(earlier.endKind, later.endKind),
  };
}

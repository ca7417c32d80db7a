import { BUILTIN_ICONS, FALLBACK_ICON, primaryKind, type KindIcon } from './kinds.js';
import type { GraphEdge, GraphNode } from './model.js';

/** Resolves the icon of a kind: custom node kinds first, then the built-in table. */
export type IconLookup = (kind: string) => KindIcon | undefined;

const builtin: IconLookup = (kind) => BUILTIN_ICONS[kind];

/**
 * The API document's Graph: one object whose values are node items (keyed by node id) and edge items (keyed
 * `rel_<edge id>`), in BloodHound's shape (bloodhoundgraph): nodes carry their properties, kinds and primary kind
 * in `data`, a label and a Font Awesome icon; edges carry their kind as label and `end2.arrow`.
 */
export function toGraph(nodes: readonly GraphNode[], edges: readonly GraphEdge[], icons: IconLookup = builtin): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of nodes) {
    const kind = primaryKind(n.kinds);
    // A custom kind's icon wins over the built-in one, whichever of the node's kinds it is.
    const icon = icons(kind) ?? n.kinds.map(icons).find(Boolean) ?? builtin(kind) ?? FALLBACK_ICON;
    const name = n.properties.name ?? n.properties.displayname ?? n.properties.objectid ?? 'NO NAME';
    out[String(n.id)] = {
      color: icon.color,
      // Not a spread followed by more keys: on Node 20's V8 each object so made gets a hidden class of its own and
      // outlives the young generation (docs/decisions.md, "Serving speed"). Object.assign gives the same object.
      data: Object.assign({}, n.properties, { objectid: n.objectid, kinds: n.kinds, nodetype: kind }),
      border: { color: 'black' },
      fontIcon: { text: `fas fa-${icon.icon}` },
      label: { backgroundColor: 'rgba(255,255,255,0.9)', center: true, fontSize: 14, text: String(name) },
      size: 1,
    };
  }
  for (const e of edges) {
    out[`rel_${e.id}`] = {
      color: '3a5464',
      ...(Object.keys(e.properties).length ? { data: e.properties } : {}),
      label: { text: e.kind },
      end2: { arrow: true },
      id1: String(e.startId),
      id2: String(e.endId),
    };
  }
  return out;
}

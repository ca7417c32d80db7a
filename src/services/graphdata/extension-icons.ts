import type { GraphSchemaStore } from '../../db/stores/graphdata/graph-schema-store.js';
import type { IconLookup } from '../../graph/format.js';

/** How long the extensions' icon table is reused between graph answers. */
const TTL_MS = 1000;
const ICON_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const COLOR = /^#[0-9A-Fa-f]{3,8}$/;

/**
 * The icons OpenGraph extensions give their node kinds (node_kinds[].icon and color), for graph answers; custom node
 * kinds (/custom-nodes) win over them where both name a kind.
 */
export function extensionIcons(store: Pick<GraphSchemaStore, 'list'>): () => Promise<IconLookup> {
  let cache: { at: number; lookup: Promise<IconLookup> } | undefined;
  const load = async (): Promise<IconLookup> => {
    const byKind = new Map<string, { icon: string; color: string }>();
    for (const x of await store.list())
      for (const k of x.nodeKinds)
        if (ICON_NAME.test(k.icon)) byKind.set(k.name, { icon: k.icon, color: COLOR.test(k.color) ? k.color : '#FFFFFF' });
    return (kind) => byKind.get(kind);
  };
  return () => {
    const now = Date.now();
    if (!cache || now - cache.at > TTL_MS) {
      const entry = { at: now, lookup: load() };
      cache = entry;
      entry.lookup.catch(() => {
        if (cache === entry) cache = undefined;
      });
    }
    return cache.lookup;
  };
}

/** Custom node kinds' icons first, then the extensions'. */
export const mergeIcons =
  (...sources: (() => Promise<IconLookup>)[]) =>
  async (): Promise<IconLookup> => {
    const lookups = await Promise.all(sources.map((s) => s()));
    return (kind) => {
      for (const l of lookups) {
        const icon = l(kind);
        if (icon) return icon;
      }
      return undefined;
    };
  };

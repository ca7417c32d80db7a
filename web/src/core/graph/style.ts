import { BUILTIN_ICONS, FALLBACK_ICON, TIER_ZERO_KIND, type KindIcon } from '../../../../src/graph/kinds';
import type { GNode } from './model';

/** The kind analysis or the Owned label gives a node the analyst owns (BloodHound's Tag_Owned). */
export const OWNED_KIND = 'Tag_Owned';

/** How the nodes of custom kinds are drawn, from the server's custom node kinds (icon name and colour). */
export type CustomKinds = ReadonlyMap<string, KindIcon>;

/**
 * The icon and colour of a node: a custom kind's wins over a built-in one, whichever of the node's kinds it is,
 * as the server's Graph answers decide (src/graph/format.ts); then the built-in table; then a question mark.
 */
export function kindIcon(node: Pick<GNode, 'kind' | 'kinds'>, custom: CustomKinds): KindIcon {
  const own = custom.get(node.kind) ?? node.kinds.map((k) => custom.get(k)).find(Boolean);
  return own ?? BUILTIN_ICONS[node.kind] ?? node.kinds.map((k) => BUILTIN_ICONS[k]).find(Boolean) ?? FALLBACK_ICON;
}

export const isTierZero = (node: Pick<GNode, 'kinds'>) => node.kinds.includes(TIER_ZERO_KIND);

/** Owned: tagged by analysis, or a member of the Owned label (`owned` holds those members' object ids). */
export const isOwned = (node: Pick<GNode, 'kinds' | 'objectId'>, owned: ReadonlySet<string>) =>
  node.kinds.includes(OWNED_KIND) || owned.has(node.objectId);

/** The kinds shown to people: the Tag_ kinds are markers, not kinds. */
export const displayKinds = (kinds: readonly string[]) => kinds.filter((k) => !k.startsWith('Tag_'));

/** Marker colours: Tier Zero gold, owned red (rings around the node; the panel says it in words). */
export const MARKERS = { tierZero: '#F5B70A', owned: '#E5383B' } as const;

import path from 'node:path';
import { tailMeta } from './tail-meta.js';

/**
 * The order a collection's files are ingested in. An edge to an object the graph does not hold yet creates a
 * placeholder node, which the object's own file later rewrites: a new row version and an entry in each of
 * graph_nodes' seven indexes, twice. Group members are mostly users and computers, while users' and computers'
 * edges point mostly at a few hub groups, so users, then computers, then groups leaves few placeholders behind
 * (groups before users, as a directory listed by name has them, made one for nearly every user: ~25,000 rewrites at
 * tier M). With edges held to a file's end (held-edges.ts) the two took ~9 % of the database's work off a tier M
 * ingest (docs/decisions.md, "Ingest: collector files"). The other files keep their order after these three.
 */
const FIRST: readonly string[] = ['users', 'computers', 'groups'];

/** Where a file of this collector type goes (lower first); every other or unknown type shares the last place. */
export function collectionRank(type: string | undefined): number {
  const i = type ? FIRST.indexOf(type.toLowerCase()) : -1;
  return i < 0 ? FIRST.length : i;
}

/** The type SharpHound's file names carry (`20240101120000_users.json`, `users.json`), if any. */
export function typeFromName(name: string): string | undefined {
  return /(?:^|[_\-. ])(users|computers|groups)\.json$/i.exec(path.basename(name))?.[1]?.toLowerCase();
}

/** A file's collector type: its meta when written data-first (read from its end), else its name's. */
export function fileType(file: string, name = file): string | undefined {
  const type = tailMeta(file)?.type;
  return typeof type === 'string' ? type : typeFromName(name);
}

/** The items in collection order, items of one rank in the order given (the sort is stable). */
export function inCollectionOrder<T>(items: readonly T[], typeOf: (item: T) => string | undefined): T[] {
  const ranked = items.map((item, at) => ({ item, at, rank: collectionRank(typeOf(item)) }));
  ranked.sort((a, b) => a.rank - b.rank || a.at - b.at);
  return ranked.map((r) => r.item);
}

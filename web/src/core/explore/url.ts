/**
 * What the Explore page shows, as its URL says it: shareable links to a node (and one of its lists), a path and
 * a Cypher query. The URL is the source of truth; the page reads it and draws what it names.
 */
export type ExploreTab = 'search' | 'pathfinding' | 'cypher';

export interface ExploreView {
  tab: ExploreTab;
  /** Search: the node drawn, by object id; `list` one of its entity lists drawn instead. */
  node?: string;
  list?: string;
  /** The node or edge whose panel is open (object id, or an edge's key). */
  select?: string;
  selectEdge?: string;
  /** Pathfinding: start and end by object id, and the edge kinds left out. */
  start?: string;
  end?: string;
  exclude?: string[];
  /** Cypher: the query in the editor; drawn when `run` is set. */
  cypher?: string;
  run?: boolean;
}

const TABS: readonly ExploreTab[] = ['search', 'pathfinding', 'cypher'];

export function parseExplore(search: URLSearchParams): ExploreView {
  const tabParam = search.get('tab') as ExploreTab | null;
  const opt = (k: string) => search.get(k) || undefined;
  const exclude = opt('exclude')?.split(',').filter(Boolean);
  return {
    tab: tabParam && TABS.includes(tabParam) ? tabParam : 'search',
    node: opt('node'),
    list: opt('list'),
    select: opt('select'),
    selectEdge: opt('edge'),
    start: opt('start'),
    end: opt('end'),
    exclude: exclude?.length ? exclude : undefined,
    cypher: search.get('cypher') ?? undefined,
    run: search.get('run') === '1' || undefined,
  };
}

export function exploreSearch(v: ExploreView): string {
  const p = new URLSearchParams();
  if (v.tab !== 'search') p.set('tab', v.tab);
  const set = (k: string, val: string | undefined) => {
    if (val) p.set(k, val);
  };
  set('node', v.node);
  set('list', v.list);
  set('start', v.start);
  set('end', v.end);
  if (v.exclude?.length) p.set('exclude', [...v.exclude].sort().join(','));
  if (v.cypher !== undefined && v.cypher !== '') p.set('cypher', v.cypher);
  if (v.run) p.set('run', '1');
  set('select', v.select);
  set('edge', v.selectEdge);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * What the canvas draws for a view: the tab chooses (each tab keeps its own parameters, so switching tabs and
 * back finds them again).
 */
export type DrawSource =
  | { type: 'node'; objectId: string }
  | { type: 'list'; objectId: string; list: string }
  | { type: 'path'; start: string; end: string; exclude: string[] }
  | { type: 'cypher'; query: string }
  | { type: 'none' };

export function drawSource(v: ExploreView): DrawSource {
  if (v.tab === 'pathfinding')
    return v.start && v.end ? { type: 'path', start: v.start, end: v.end, exclude: v.exclude ?? [] } : { type: 'none' };
  if (v.tab === 'cypher') return v.run && v.cypher?.trim() ? { type: 'cypher', query: v.cypher } : { type: 'none' };
  if (v.node && v.list) return { type: 'list', objectId: v.node, list: v.list };
  if (v.node) return { type: 'node', objectId: v.node };
  return { type: 'none' };
}

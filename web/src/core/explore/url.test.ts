import { describe, expect, it } from 'vitest';
import { drawSource, exploreSearch, parseExplore, type ExploreView } from './url';

const roundTrip = (v: ExploreView) => parseExplore(new URLSearchParams(exploreSearch(v)));

describe('the Explore URL', () => {
  it('round-trips a node, a list, a path and a query', () => {
    const views: ExploreView[] = [
      { tab: 'search', node: 'S-1-5-21-1-500', select: 'S-1-5-21-1-500' },
      { tab: 'search', node: 'S-1-5-21-1-500', list: 'adminRights' },
      { tab: 'pathfinding', start: 'A', end: 'B', exclude: ['HasSession', 'CanRDP'] },
      { tab: 'cypher', cypher: 'MATCH (n:User) RETURN n LIMIT 5', run: true },
    ];
    for (const v of views) expect(roundTrip(v)).toEqual({ ...v, exclude: v.exclude?.slice().sort() });
  });

  it('keeps the search tab out of the URL and ignores unknown tabs', () => {
    expect(exploreSearch({ tab: 'search' })).toBe('');
    expect(parseExplore(new URLSearchParams('tab=nonsense')).tab).toBe('search');
  });

  it('draws what the active tab names, and nothing until a path has both ends or a query is run', () => {
    expect(drawSource({ tab: 'search', node: 'X' })).toEqual({ type: 'node', objectId: 'X' });
    expect(drawSource({ tab: 'search', node: 'X', list: 'members' })).toEqual({ type: 'list', objectId: 'X', list: 'members' });
    expect(drawSource({ tab: 'pathfinding', start: 'A' })).toEqual({ type: 'none' });
    expect(drawSource({ tab: 'pathfinding', start: 'A', end: 'B' })).toEqual({ type: 'path', start: 'A', end: 'B', exclude: [] });
    expect(drawSource({ tab: 'cypher', cypher: 'MATCH (n) RETURN n' })).toEqual({ type: 'none' });
    expect(drawSource({ tab: 'cypher', cypher: 'MATCH (n) RETURN n', run: true })).toEqual({ type: 'cypher', query: 'MATCH (n) RETURN n' });
    // Each tab keeps its parameters: the node of the search tab is not drawn on the pathfinding tab.
    expect(drawSource({ tab: 'pathfinding', node: 'X' })).toEqual({ type: 'none' });
  });
});

import { EntityListGraphDocument, NodeByObjectIdDocument, ShortestPathsDocument, type EntityListName } from '../../generated/graphql';
import { gql } from '../api/client';
import { EMPTY_GRAPH, graphFromApi, type ExploreGraph } from '../graph/model';
import { relationshipKinds } from '../pathfinding/edgeCategories';
import type { DrawSource } from './url';

/** What a drawn result says about itself besides its graph (a path's count, a truncated answer). */
export interface DrawResult {
  graph: ExploreGraph;
  summary: string;
  /** A query's answer as a table, when it has no graph to draw (scalars). */
  table?: { columns: string[]; rows: unknown[][] };
}

/** Fetches what a source names: one node, one of its entity lists, the shortest paths, or a Cypher result. */
export async function fetchSource(source: DrawSource, signal?: AbortSignal): Promise<DrawResult> {
  switch (source.type) {
    case 'none':
      return { graph: EMPTY_GRAPH, summary: '' };
    case 'node': {
      const { node } = await gql(NodeByObjectIdDocument, { objectId: source.objectId }, signal);
      if (!node) throw new Error(`No node has the object id ${source.objectId}.`);
      return { graph: graphFromApi([node], []), summary: '' };
    }
    case 'list': {
      const { entity } = await gql(EntityListGraphDocument, { objectId: source.objectId, list: source.list as EntityListName }, signal);
      if (!entity) throw new Error(`No node has the object id ${source.objectId}.`);
      return { graph: graphFromApi(entity.graph.nodes, entity.graph.edges), summary: '' };
    }
    case 'path': {
      const { shortestPaths: p } = await gql(
        ShortestPathsDocument,
        { start: source.start, end: source.end, relationshipKinds: relationshipKinds(source.exclude) },
        signal,
      );
      const summary =
        p.pathCount === 0
          ? 'No path between these nodes with the chosen edge kinds.'
          : `${p.pathCount} shortest path${p.pathCount === 1 ? '' : 's'} of ${p.length} hop${p.length === 1 ? '' : 's'}${p.truncated ? ' (the first 1,000 shown)' : ''}`;
      return { graph: graphFromApi(p.nodes, p.edges), summary };
    }
    case 'cypher':
      return runCypherSource(source.query, signal);
  }
}

/** Set by the Cypher feature (core/cypher), which owns the Cypher documents. */
let runCypherSource: (query: string, signal?: AbortSignal) => Promise<DrawResult> = async () => {
  throw new Error('This server does not run Cypher queries.');
};
export function registerCypherRunner(run: typeof runCypherSource): void {
  runCypherSource = run;
}

import { EdgePropertiesDocument, RunCypherDocument, RunCypherWithPropertiesDocument } from '../../generated/graphql';
import { gql } from '../api/client';
import { registerCypherRunner } from '../explore/fetch';
import type { ExploreGraph, GEdge, GNode } from '../graph/model';
import { cypherGraph, cypherSummary } from './result';

// The Explore page draws Cypher answers through this runner (core/explore/fetch.ts names the sources). Answers come
// without properties: a large one is then half the bytes to send and parse.
registerCypherRunner(async (query, signal) => {
  const { cypher } = await gql(RunCypherDocument, { query }, signal);
  // Marks for the benchmark's breakdown of a result's way to the screen (bench/web-app.ts).
  performance.mark('gas:answer');
  return {
    graph: cypherGraph(cypher, true),
    summary: cypherSummary(cypher),
    table: cypher.nodes.length ? undefined : { columns: cypher.columns, rows: cypher.rows as unknown[][] },
  };
});

/** The query's answer again, with every property (what the JSON export writes). */
export async function cypherGraphWithProperties(query: string): Promise<ExploreGraph> {
  const { cypher } = await gql(RunCypherWithPropertiesDocument, { query });
  return cypherGraph(cypher);
}

/** One drawn edge's properties, read by its ends' object ids and its kind. */
export async function edgeProperties(edge: GEdge, source: GNode, target: GNode): Promise<Record<string, unknown>> {
  const { cypher } = await gql(EdgePropertiesDocument, { parameters: { source: source.objectId, target: target.objectId } });
  const found = cypher.edges.find((e) => e.kind === edge.kind);
  const p = found?.properties;
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
}

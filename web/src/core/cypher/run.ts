import { RunCypherDocument } from '../../generated/graphql';
import { gql } from '../api/client';
import { registerCypherRunner } from '../explore/fetch';
import { cypherGraph, cypherSummary } from './result';

// The Explore page draws Cypher answers through this runner (core/explore/fetch.ts names the sources).
registerCypherRunner(async (query, signal) => {
  const { cypher } = await gql(RunCypherDocument, { query }, signal);
  // Marks for the benchmark's breakdown of a result's way to the screen (bench/web-app.ts).
  performance.mark('gas:answer');
  return {
    graph: cypherGraph(cypher),
    summary: cypherSummary(cypher),
    table: cypher.nodes.length ? undefined : { columns: cypher.columns, rows: cypher.rows as unknown[][] },
  };
});

import { RunCypherDocument } from '../../generated/graphql';
import { gql } from '../api/client';
import { registerCypherRunner } from '../explore/fetch';
import { cypherGraph, cypherSummary } from './result';

// The Explore page draws Cypher answers through this runner (core/explore/fetch.ts names the sources).
registerCypherRunner(async (query, signal) => {
  const { cypher } = await gql(RunCypherDocument, { query }, signal);
  return {
    graph: cypherGraph(cypher),
    summary: cypherSummary(cypher),
    table: cypher.nodes.length ? undefined : { columns: cypher.columns, rows: cypher.rows as unknown[][] },
  };
});

import type { Queryable } from '../../pool.js';

/** Graph reads of the edge explanations that follow the graph as it is: relay targets and ACL inheritance. */

// Domain controllers of the target's domain that accept relayed NTLM on LDAP ($2 false) or LDAPS ($2 true).
const RELAY_DCS = /* SQL */ `-- explain.relayDcs
select n.id from graph_nodes n, graph_nodes t
where t.id = $1 and n.properties ->> 'domainsid' = t.properties ->> 'domainsid' and n.properties ->> 'isdc' = 'true'
  and case when $2::boolean
        then n.properties ->> 'ldapsavailable' = 'true' and n.properties ->> 'ldapsepa' = 'false'
        else n.properties ->> 'ldapavailable' = 'true' and n.properties ->> 'ldapsigning' = 'false' end
  and n.kind_ids && array(select id from graph_kinds where name = 'Computer')
order by n.id`;

// Enterprise CAs of the target's domain with a web enrolment endpoint open to relaying.
const RELAY_CAS = /* SQL */ `-- explain.relayCas
select n.id from graph_nodes n, graph_nodes t
where t.id = $1 and n.properties ->> 'domainsid' = t.properties ->> 'domainsid'
  and n.properties ->> 'hasvulnerableendpoint' = 'true'
  and n.kind_ids && array(select id from graph_kinds where name = 'EnterpriseCA')
order by n.id`;

// Up the Contains edges from a node to the nearest container whose ACL defines the inherited ACE (its hash).
const INHERITED_FROM = /* SQL */ `-- explain.inheritedFrom
with recursive up (id, depth, path) as (
  select $1::bigint, 0, array[]::bigint[]
  union all
  select e.start_id, up.depth + 1, e.id || up.path
  from up join graph_edges e on e.end_id = up.id and e.kind_id = (select id from graph_kinds where name = 'Contains')
  where up.depth < 64
)
select up.id as "containerId",
       (select coalesce(jsonb_agg(jsonb_build_array(e.start_id, e.end_id) order by o.i), '[]') from unnest(up.path) with ordinality o(eid, i)
          join graph_edges e on e.id = o.eid) as contains
from up join graph_nodes n on n.id = up.id
where up.depth > 0 and n.properties -> 'inheritancehashes' ? $2::text
order by up.depth limit 1`;

export function createAclStore(db: Queryable) {
  return {
    async relayTargets(kind: string, targetId: number): Promise<number[]> {
      const rows =
        kind === 'CoerceAndRelayNTLMToADCS'
          ? await db.query<{ id: number }>(RELAY_CAS, [targetId])
          : await db.query<{ id: number }>(RELAY_DCS, [targetId, kind === 'CoerceAndRelayNTLMToLDAPS']);
      return rows.map((r) => Number(r.id));
    },

    async inheritedFrom(
      targetId: number,
      hash: string,
    ): Promise<{ containerId: number; contains: { startId: number; endId: number; kind: string }[] } | undefined> {
      const [row] = await db.query<{ containerId: number; contains: [number, number][] }>(INHERITED_FROM, [targetId, hash]);
      if (!row) return undefined;
      return {
        containerId: Number(row.containerId),
        contains: row.contains.map(([s, e]) => ({ startId: Number(s), endId: Number(e), kind: 'Contains' })),
      };
    },
  };
}

export type AclStore = ReturnType<typeof createAclStore>;

import type { Queryable } from '../../pool.js';

/** A node's membership of a zone or label (asset group tag), as the Cypher engine maps it onto tag kinds. */
export interface TagMemberRow {
  tagName: string;
  /** BloodHound's tag type: 1 zone (tier), 2 label, 3 owned. */
  tagType: number;
  nodeId: number;
}

const SQL = {
  members: /* SQL */ `-- cypher.tagMembers
select t.name as "tagName", t.type as "tagType", sn.node_id as "nodeId"
from asset_group_tags t
join asset_group_tag_selectors s on s.asset_group_tag_id = t.id
join asset_group_tag_selector_nodes sn on sn.selector_id = s.id
group by t.name, t.type, sn.node_id
having max(sn.certified) <> 1 or min(sn.certified) <> 1`,
};

/** Zone and label memberships for Cypher's Tag_ kinds (a member whose every selection was revoked is left out). */
export function createTagMembersStore(db: Queryable) {
  return {
    members: (): Promise<TagMemberRow[]> => db.query<TagMemberRow>(SQL.members),
  };
}

export type TagMembersStore = ReturnType<typeof createTagMembersStore>;

import type { Queryable } from '../../pool.js';

export interface IconConfig {
  icon: { type: string; name: string; color: string };
}

export interface CustomNodeKindModel {
  id: number;
  kindName: string;
  config: IconConfig;
}

const COLUMNS = /* SQL */ `id, kind_name as "kindName", config`;

const LIST = /* SQL */ `-- customNodes.list
select ${COLUMNS} from custom_node_kinds order by kind_name`;
const GET = /* SQL */ `-- customNodes.get
select ${COLUMNS} from custom_node_kinds where kind_name = $1`;
const CREATE = /* SQL */ `-- customNodes.create
insert into custom_node_kinds (kind_name, config) values ($1, $2) returning ${COLUMNS}`;
const UPDATE = /* SQL */ `-- customNodes.update
update custom_node_kinds set config = $2, updated_at = now() where kind_name = $1 returning ${COLUMNS}`;
const DELETE = /* SQL */ `-- customNodes.delete
delete from custom_node_kinds where kind_name = $1`;

export function createCustomNodesStore(db: Queryable) {
  return {
    list: () => db.query<CustomNodeKindModel>(LIST),
    async get(kindName: string): Promise<CustomNodeKindModel | undefined> {
      return (await db.query<CustomNodeKindModel>(GET, [kindName]))[0];
    },
    async create(kindName: string, config: IconConfig): Promise<CustomNodeKindModel> {
      return (await db.query<CustomNodeKindModel>(CREATE, [kindName, JSON.stringify(config)]))[0]!;
    },
    async update(kindName: string, config: IconConfig): Promise<CustomNodeKindModel | undefined> {
      return (await db.query<CustomNodeKindModel>(UPDATE, [kindName, JSON.stringify(config)]))[0];
    },
    async delete(kindName: string): Promise<boolean> {
      return (await db.execute(DELETE, [kindName])) > 0;
    },
  };
}

export type CustomNodesStore = ReturnType<typeof createCustomNodesStore>;

import type { GraphStore } from '../../graph/store.js';

/** An OU or domain named by a collection event or job: what the graph knows of it, or `exists: false`. */
export interface ObjectRef {
  objectid: string;
  name: string;
  exists: boolean;
  type: string;
  distinguishedname: string;
}

const SHOWN_KINDS = ['Domain', 'OU', 'Container', 'AZTenant', 'AZManagementGroup', 'AZSubscription'];

/** Looks up every object id once; ids the graph does not hold (yet) are kept with `exists: false`. */
export async function lookUpRefs(graph: GraphStore, objectids: readonly string[]): Promise<Map<string, ObjectRef>> {
  const unique = [...new Set(objectids)];
  const nodes = await graph.nodesByObjectIds(unique);
  const found = new Map(nodes.map((n) => [n.objectid, n]));
  return new Map(
    unique.map((id) => {
      const n = found.get(id);
      const props = n?.properties ?? {};
      return [
        id,
        {
          objectid: id,
          name: typeof props.name === 'string' ? props.name : '',
          exists: !!n,
          type: n ? (n.kinds.find((k) => SHOWN_KINDS.includes(k)) ?? n.kinds[0] ?? '') : '',
          distinguishedname: typeof props.distinguishedname === 'string' ? props.distinguishedname : '',
        },
      ];
    }),
  );
}

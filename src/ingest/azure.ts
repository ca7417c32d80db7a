import type { EdgeInput, NodeInput, Properties } from '../graph/model.js';
import { field, list, obj, str } from './fields.js';
import type { Converted } from './sharphound.js';

/**
 * AzureHound output: `{"meta": {"type": "azure"}, "data": [{"kind": "AZUser", "data": {...}}, …]}`. Converts the
 * common kinds the way BloodHound's ein/azure.go does: object ids upper-cased, names `DISPLAYNAME@TENANT`,
 * tenant/subscription/resource-group containment as AZContains, membership AZMemberOf, ownership AZOwns,
 * directory roles through AZHasRole.
 */
const up = (v: string | undefined) => v?.toUpperCase();

const ODATA_KINDS: Record<string, string> = {
  '#microsoft.graph.user': 'AZUser',
  '#microsoft.graph.group': 'AZGroup',
  '#microsoft.graph.serviceprincipal': 'AZServicePrincipal',
  '#microsoft.graph.device': 'AZDevice',
  '#microsoft.graph.application': 'AZApp',
};

/** The kind of a directory object from its "@odata.type". */
function directoryKind(o: unknown): string {
  return ODATA_KINDS[(str(o, '@odata.type') ?? '').toLowerCase()] ?? 'AZBase';
}

export function convertAzure(item: unknown, now: string): Converted {
  const kind = str(item, 'kind');
  const d = obj(item, 'data');
  const out: Converted = { nodes: [], edges: [], deletes: [] };
  if (!kind || !d) throw new Error('an AzureHound item needs "kind" and "data"');
  const tenant = up(str(d, 'tenantId'));
  const tenantName = str(d, 'tenantName') ?? '';

  const node = (objectid: string | undefined, k: string, props: Properties) => {
    if (!objectid) return;
    const clean: Properties = {};
    for (const [key, v] of Object.entries(props)) if (v !== undefined && v !== null && v !== '') clean[key] = v;
    out.nodes.push({
      objectid,
      kinds: ['AZBase', k],
      properties: { ...clean, objectid, tenantid: tenant, lastseen: now, lastcollected: now },
    });
  };
  const edge = (
    start: string | undefined,
    end: string | undefined,
    k: string,
    startKind: string,
    endKind: string,
    props: Properties = {},
  ) => {
    if (start && end)
      out.edges.push({ start, end, kind: k, properties: { ...props, lastseen: now }, startKind, endKind } satisfies EdgeInput);
  };
  const named = (display: string | undefined) => (display ? `${display}@${tenantName}`.toUpperCase() : undefined);

  switch (kind) {
    case 'AZTenant': {
      const id = up(str(d, 'tenantId') ?? str(d, 'id'));
      out.nodes.push({
        objectid: id!,
        kinds: ['AZBase', 'AZTenant'],
        properties: { objectid: id, name: up(str(d, 'displayName')), tenantid: id, lastseen: now, lastcollected: now },
      } as NodeInput);
      break;
    }
    case 'AZUser': {
      const id = up(str(d, 'id'));
      node(id, 'AZUser', {
        name: up(str(d, 'userPrincipalName')) ?? named(str(d, 'displayName')),
        displayname: str(d, 'displayName'),
        enabled: field(d, 'accountEnabled'),
        onpremid: str(d, 'onPremisesSecurityIdentifier'),
        userprincipalname: str(d, 'userPrincipalName'),
      });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZUser');
      const onPrem = up(str(d, 'onPremisesSecurityIdentifier'));
      if (onPrem) edge(id, onPrem, 'SyncedToADUser', 'AZUser', 'User');
      break;
    }
    case 'AZGroup': {
      const id = up(str(d, 'id'));
      node(id, 'AZGroup', {
        name: named(str(d, 'displayName')),
        displayname: str(d, 'displayName'),
        isassignabletorole: field(d, 'isAssignableToRole'),
        securityenabled: field(d, 'securityEnabled'),
        onpremid: str(d, 'onPremisesSecurityIdentifier'),
      });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZGroup');
      break;
    }
    case 'AZGroupMember':
      for (const m of list(d, 'members')) {
        const member = obj(m, 'member');
        edge(up(str(member, 'id')), up(str(d, 'groupId')), 'AZMemberOf', directoryKind(member), 'AZGroup');
      }
      break;
    case 'AZGroupOwner':
    case 'AZAppOwner':
    case 'AZServicePrincipalOwner':
    case 'AZDeviceOwner': {
      const target = kind.replace(/Owner$/, '');
      const targetId = up(str(d, target === 'AZApp' ? 'appId' : `${target.slice(2, 3).toLowerCase()}${target.slice(3)}Id`));
      for (const o of list(d, 'owners')) {
        const owner = obj(o, 'owner');
        edge(up(str(owner, 'id')), targetId, 'AZOwns', directoryKind(owner), target);
      }
      break;
    }
    case 'AZApp': {
      const id = up(str(d, 'appId'));
      node(id, 'AZApp', {
        name: up(`${str(d, 'displayName') ?? ''}@${str(d, 'publisherDomain') ?? ''}`),
        displayname: str(d, 'displayName'),
        appid: str(d, 'appId'),
      });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZApp');
      break;
    }
    case 'AZServicePrincipal': {
      const id = up(str(d, 'id'));
      node(id, 'AZServicePrincipal', { name: named(str(d, 'displayName')), displayname: str(d, 'displayName'), appid: str(d, 'appId') });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZServicePrincipal');
      edge(up(str(d, 'appId')), id, 'AZRunsAs', 'AZApp', 'AZServicePrincipal');
      break;
    }
    case 'AZDevice': {
      const id = up(str(d, 'id'));
      node(id, 'AZDevice', {
        name: named(str(d, 'displayName')),
        displayname: str(d, 'displayName'),
        operatingsystem: str(d, 'operatingSystem'),
      });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZDevice');
      break;
    }
    case 'AZRole': {
      const id = up(`${str(d, 'templateId') ?? str(d, 'id')}@${str(d, 'tenantId')}`);
      node(id, 'AZRole', { name: named(str(d, 'displayName')), displayname: str(d, 'displayName'), templateid: str(d, 'templateId') });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZRole');
      break;
    }
    case 'AZRoleAssignment':
      for (const a of list(d, 'roleAssignments')) {
        const role = up(`${str(a, 'roleDefinitionId') ?? str(d, 'roleDefinitionId')}@${str(d, 'tenantId')}`);
        edge(up(str(a, 'principalId')), role, 'AZHasRole', 'AZBase', 'AZRole', { scope: str(a, 'directoryScopeId') ?? '/' });
      }
      break;
    case 'AZSubscription': {
      const id = up(str(d, 'id') ?? `/SUBSCRIPTIONS/${str(d, 'subscriptionId')}`);
      node(id, 'AZSubscription', { name: up(str(d, 'displayName')), subscriptionid: str(d, 'subscriptionId') });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZSubscription');
      break;
    }
    case 'AZResourceGroup': {
      const id = up(str(d, 'id'));
      node(id, 'AZResourceGroup', { name: up(str(d, 'name')) });
      edge(up(`/SUBSCRIPTIONS/${str(d, 'subscriptionId')}`), id, 'AZContains', 'AZSubscription', 'AZResourceGroup');
      break;
    }
    case 'AZVM':
    case 'AZKeyVault': {
      const id = up(str(d, 'id'));
      node(id, kind, { name: up(str(d, 'name')) });
      edge(up(str(d, 'resourceGroupId') ?? str(d, 'resourceGroup')), id, 'AZContains', 'AZResourceGroup', kind);
      const identity = obj(d, 'identity');
      if (identity) edge(id, up(str(identity, 'principalId')), 'AZManagedIdentity', kind, 'AZServicePrincipal');
      break;
    }
    case 'AZManagementGroup': {
      const id = up(str(d, 'id'));
      node(id, 'AZManagementGroup', { name: up(str(field(d, 'properties'), 'displayName') ?? str(d, 'name')) });
      edge(tenant, id, 'AZContains', 'AZTenant', 'AZManagementGroup');
      break;
    }
    case 'AZManagementGroupDescendant': {
      const child = up(str(d, 'id'));
      const parent = up(str(obj(field(d, 'properties'), 'parent'), 'id'));
      const childKind = /subscriptions/i.test(str(d, 'type') ?? '') ? 'AZSubscription' : 'AZManagementGroup';
      edge(parent, child, 'AZContains', 'AZManagementGroup', childKind);
      break;
    }
    default:
      // Counted and reported by the caller, never dropped in silence.
      out.unknownKind = kind;
      break;
  }
  return out;
}

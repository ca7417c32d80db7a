import { badRequest } from '../../errors.js';
import { bodyObject, bool, int, single } from '../params.js';
import * as shape from '../reshape/admin.js';
import type { FormFields, RestRequest, RestRoute } from '../route.js';

const data = (body: unknown) => ({ body: { data: body } });

/** One form field as text (a file's contents for file fields); 400 in BloodHound's words when missing or repeated. */
function formValue(fields: FormFields, name: string, required: true): string;
function formValue(fields: FormFields, name: string, required: false): string | undefined;
function formValue(fields: FormFields, name: string, required: boolean): string | undefined {
  const values = fields[name] ?? [];
  if (values.length === 0) {
    if (required) throw badRequest('saml', `form is missing "${name}" parameter`);
    return undefined;
  }
  if (values.length > 1) throw badRequest('saml', `expected only one "${name}" parameter`);
  const v = values[0]!;
  return typeof v === 'string' ? v : v.content.toString('utf8');
}

const intParam = (context: string, name: string) => (req: RestRequest) => int(context, name, req.params[name], { min: 1 })!;

/** The SAML provider form (endpoint 3): name and metadata, plus optional auto-provisioning settings. */
function samlForm(req: RestRequest) {
  const fields = (req.body ?? {}) as FormFields;
  const name = formValue(fields, 'name', true);
  const metadata = formValue(fields, 'metadata', true);
  const enabled = formValue(fields, 'config.auto_provision.enabled', false);
  const roleId = formValue(fields, 'config.auto_provision.default_role_id', false);
  const roleProvision = formValue(fields, 'config.auto_provision.role_provision', false);
  const mappings = (fields.principal_attribute_mappings ?? []).filter((v): v is string => typeof v === 'string');
  return {
    name,
    metadata,
    autoProvision: {
      enabled: enabled === undefined ? null : bool('saml', 'config.auto_provision.enabled', enabled, false),
      defaultRoleId: int('saml', 'config.auto_provision.default_role_id', roleId, { min: 1 }) ?? null,
      roleProvision: roleProvision === undefined ? null : bool('saml', 'config.auto_provision.role_provision', roleProvision, false),
    },
    mappings,
  };
}

/** Browsers get a redirect to the UI with the session cookie; API clients asking for JSON get the login result. */
function loginAnswer(login: Record<string, unknown>, req: RestRequest) {
  const accept = String(req.headers.accept ?? '');
  if (/application\/json/i.test(accept)) {
    return data({ user_id: login.userId, session_token: login.sessionToken, auth_expired: login.authExpired });
  }
  return {
    status: 302,
    headers: {
      Location: '/ui/login?sso=ok',
      'Set-Cookie': `token=${String(login.sessionToken)}; Path=/; SameSite=Strict; Secure`,
    },
  };
}

/**
 * Identity and display administration: SAML providers (2, 3) and SSO login, custom node kinds (4), asset group
 * tags with selectors and members, and member certification (5).
 */
export const adminRoutes: RestRoute[] = [
  // 3
  {
    method: 'POST',
    path: '/api/v2/saml/providers',
    edition: 'both',
    context: 'saml',
    operation: 'CreateSamlProvider',
    body: 'multipart',
    variables: samlForm,
    reshape: ({ createSamlProvider }) => data(shape.samlProvider(createSamlProvider)),
  },
  // 2
  {
    method: 'GET',
    path: '/api/v2/saml/providers/:saml_provider_id',
    edition: 'both',
    context: 'saml',
    operation: 'GetSamlProvider',
    deprecatedBy: '/api/v2/sso-providers',
    variables: (req) => ({ id: intParam('saml', 'saml_provider_id')(req) }),
    reshape: ({ samlProvider }) => data(shape.samlProvider(samlProvider)),
  },
  {
    method: 'GET',
    path: '/api/v2/sso-providers',
    edition: 'both',
    context: 'sso',
    operation: 'ListSsoProviders',
    reshape: ({ ssoProviders }) => data(ssoProviders.map(shape.ssoProvider)),
  },
  {
    method: 'DELETE',
    path: '/api/v2/sso-providers/:sso_provider_id',
    edition: 'both',
    context: 'sso',
    operation: 'DeleteSsoProvider',
    variables: (req) => ({ id: intParam('sso', 'sso_provider_id')(req) }),
    reshape: () => ({ status: 204 }),
  },
  {
    method: 'GET',
    path: '/api/v2/sso/:slug/metadata',
    edition: 'both',
    context: 'sso',
    operation: 'SamlMetadata',
    variables: (req) => ({ slug: req.params.slug }),
    reshape: ({ samlMetadata }) => ({ raw: { data: Buffer.from(samlMetadata), contentType: 'application/samlmetadata+xml' } }),
  },
  {
    method: 'GET',
    path: '/api/v2/sso/:slug/login',
    edition: 'both',
    context: 'sso',
    operation: 'SamlLoginUrl',
    variables: (req) => ({ slug: req.params.slug, relayState: single('sso', 'RelayState', req.query.RelayState) ?? null }),
    reshape: ({ samlLoginUrl }) => ({ status: 302, headers: { Location: samlLoginUrl } }),
  },
  {
    method: 'POST',
    path: '/api/v2/sso/:slug/callback',
    edition: 'both',
    context: 'sso',
    operation: 'SamlCallback',
    body: 'form',
    variables: (req) => {
      const form = (req.body ?? {}) as Record<string, string>;
      if (!form.SAMLResponse) throw badRequest('sso', 'The form has no SAMLResponse.');
      return { slug: req.params.slug, samlResponse: form.SAMLResponse };
    },
    reshape: ({ samlCallback }, req) => loginAnswer(samlCallback, req),
  },

  // custom node kinds
  {
    method: 'GET',
    path: '/api/v2/custom-nodes',
    edition: 'both',
    context: 'custom-nodes',
    operation: 'ListCustomNodeKinds',
    reshape: ({ customNodeKinds }) => data(customNodeKinds.map(shape.customNodeKind)),
  },
  {
    method: 'GET',
    path: '/api/v2/custom-nodes/:kind_name',
    edition: 'both',
    context: 'custom-nodes',
    operation: 'GetCustomNodeKind',
    variables: (req) => ({ kindName: req.params.kind_name }),
    reshape: ({ customNodeKind }) => data(shape.customNodeKind(customNodeKind)),
  },
  {
    method: 'POST',
    path: '/api/v2/custom-nodes',
    edition: 'both',
    context: 'custom-nodes',
    operation: 'CreateCustomNodeKinds',
    body: 'json',
    variables: ({ body }) => {
      const types = bodyObject('custom-nodes', body).custom_types;
      if (typeof types !== 'object' || types === null || Array.isArray(types)) {
        throw badRequest('custom-nodes', 'custom_types must be an object of kind name → {icon}.');
      }
      return { kinds: Object.entries(types).map(([kindName, config]) => ({ kindName, config })) };
    },
    reshape: ({ createCustomNodeKinds }) => ({ status: 201, body: { data: createCustomNodeKinds.map(shape.customNodeKind) } }),
  },
  // 4: the kind object itself, not wrapped in data
  {
    method: 'PUT',
    path: '/api/v2/custom-nodes/:kind_name',
    edition: 'both',
    context: 'custom-nodes',
    operation: 'UpdateCustomNodeKind',
    body: 'json',
    variables: (req) => {
      const config = bodyObject('custom-nodes', req.body).config;
      if (config === undefined || config === null) throw badRequest('custom-nodes', 'config must be an object with an icon.');
      return { kindName: req.params.kind_name, config };
    },
    reshape: ({ updateCustomNodeKind }) => ({ body: shape.customNodeKind(updateCustomNodeKind) }),
  },
  {
    method: 'DELETE',
    path: '/api/v2/custom-nodes/:kind_name',
    edition: 'both',
    context: 'custom-nodes',
    operation: 'DeleteCustomNodeKind',
    variables: (req) => ({ kindName: req.params.kind_name }),
    reshape: () => ({ status: 204 }),
  },

  // asset group tags (zones and labels)
  // 5
  {
    method: 'POST',
    path: '/api/v2/asset-group-tags/certifications',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'CertifyMembers',
    body: 'json',
    variables: ({ body }) => {
      const b = bodyObject('asset-group-tags', body);
      if (b.note !== undefined && b.note !== null && typeof b.note !== 'string')
        throw badRequest('asset-group-tags', 'note must be a string.');
      return { memberIds: b.member_ids ?? null, note: b.note ?? null, action: b.action ?? null };
    },
    reshape: ({ certifyMembers }) => data(certifyMembers),
  },
  {
    method: 'GET',
    path: '/api/v2/asset-group-tags',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'ListAssetGroupTags',
    reshape: ({ assetGroupTags }) => data({ tags: assetGroupTags.map(shape.tag) }),
  },
  {
    method: 'POST',
    path: '/api/v2/asset-group-tags',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'CreateAssetGroupTag',
    body: 'json',
    variables: ({ body }) => ({ input: bodyObject('asset-group-tags', body) }),
    reshape: ({ createAssetGroupTag }) => ({ status: 201, body: { data: shape.tag(createAssetGroupTag) } }),
  },
  {
    method: 'GET',
    path: '/api/v2/asset-group-tags/:tag_id',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'GetAssetGroupTag',
    variables: (req) => ({ id: intParam('asset-group-tags', 'tag_id')(req) }),
    reshape: ({ assetGroupTag }) => data(shape.tag(assetGroupTag)),
  },
  {
    method: 'PATCH',
    path: '/api/v2/asset-group-tags/:tag_id',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'UpdateAssetGroupTag',
    body: 'json',
    variables: (req) => ({ id: intParam('asset-group-tags', 'tag_id')(req), input: bodyObject('asset-group-tags', req.body) }),
    reshape: ({ updateAssetGroupTag }) => data(shape.tag(updateAssetGroupTag)),
  },
  {
    method: 'DELETE',
    path: '/api/v2/asset-group-tags/:tag_id',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'DeleteAssetGroupTag',
    variables: (req) => ({ id: intParam('asset-group-tags', 'tag_id')(req) }),
    reshape: () => ({ status: 204 }),
  },
  {
    method: 'GET',
    path: '/api/v2/asset-group-tags/:tag_id/selectors',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'ListAssetGroupSelectors',
    variables: (req) => ({ id: intParam('asset-group-tags', 'tag_id')(req) }),
    reshape: ({ assetGroupTag }) => data({ selectors: assetGroupTag.selectors.map(shape.selector) }),
  },
  {
    method: 'POST',
    path: '/api/v2/asset-group-tags/:tag_id/selectors',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'CreateAssetGroupSelector',
    body: 'json',
    variables: (req) => ({ tagId: intParam('asset-group-tags', 'tag_id')(req), input: bodyObject('asset-group-tags', req.body) }),
    reshape: ({ createAssetGroupSelector }) => ({ status: 201, body: { data: shape.selector(createAssetGroupSelector) } }),
  },
  {
    method: 'PATCH',
    path: '/api/v2/asset-group-tags/:tag_id/selectors/:selector_id',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'UpdateAssetGroupSelector',
    body: 'json',
    variables: (req) => ({
      tagId: intParam('asset-group-tags', 'tag_id')(req),
      id: intParam('asset-group-tags', 'selector_id')(req),
      input: bodyObject('asset-group-tags', req.body),
    }),
    reshape: ({ updateAssetGroupSelector }) => data(shape.selector(updateAssetGroupSelector)),
  },
  {
    method: 'DELETE',
    path: '/api/v2/asset-group-tags/:tag_id/selectors/:selector_id',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'DeleteAssetGroupSelector',
    variables: (req) => ({ tagId: intParam('asset-group-tags', 'tag_id')(req), id: intParam('asset-group-tags', 'selector_id')(req) }),
    reshape: () => ({ status: 204 }),
  },
  {
    method: 'GET',
    path: '/api/v2/asset-group-tags/:tag_id/members',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'ListAssetGroupMembers',
    variables: (req) => ({
      id: intParam('asset-group-tags', 'tag_id')(req),
      skip: int('asset-group-tags', 'skip', single('asset-group-tags', 'skip', req.query.skip), { min: 0 }) ?? null,
      limit: int('asset-group-tags', 'limit', single('asset-group-tags', 'limit', req.query.limit), { min: 0 }) ?? null,
      selectorId:
        int('asset-group-tags', 'selector_id', single('asset-group-tags', 'selector_id', req.query.selector_id), { min: 1 }) ?? null,
    }),
    reshape: ({ assetGroupTag: { members: m } }) => ({
      body: { count: m.totalCount, skip: m.skip, limit: m.limit, data: { members: m.members.map(shape.member) } },
    }),
  },
  {
    method: 'GET',
    path: '/api/v2/asset-group-tags/:tag_id/members/:member_id',
    edition: 'both',
    context: 'asset-group-tags',
    operation: 'GetAssetGroupMember',
    variables: (req) => ({ tagId: intParam('asset-group-tags', 'tag_id')(req), memberId: intParam('asset-group-tags', 'member_id')(req) }),
    reshape: ({ assetGroupMember: m }) =>
      data({
        member: {
          ...shape.member(m.member),
          selectors: m.selectors.map(shape.selector),
          certification_history: m.history.map(shape.certification),
        },
      }),
  },
];

import { z } from 'zod';
import { sessionCookie } from '../../auth/session-cookie.js';
import { asAppError, badRequest } from '../../errors.js';
import type { SeedType } from '../../generated/operations.js';
import { intText, parse, query } from '../params.js';
import * as shape from '../reshape/admin.js';
import { ZONE_RESPONSES as ZONES } from '../responses/zones.js';
import { data, noContent, route, type FormFields, type RestRequest } from '../route.js';
import { configRoutes } from './config.js';
import { isForm } from './sso.js';

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

/** Optional settings of the SAML form, as text: a boolean or a role id. */
const formSettings = z.object({
  'config.auto_provision.enabled': query.optBool(),
  'config.auto_provision.default_role_id': query.int(1),
  'config.auto_provision.role_provision': query.optBool(),
});

/** The SAML provider form (endpoint 3): name and metadata, plus optional auto-provisioning settings. */
function samlForm(fields: FormFields, partial = false) {
  const text = (name: string) => formValue(fields, name, false);
  const settings = parse('saml', 'body', formSettings, Object.fromEntries(Object.keys(formSettings.shape).map((k) => [k, text(k)])));
  return {
    name: partial ? (text('name') ?? '') : formValue(fields, 'name', true),
    metadata: partial ? (text('metadata') ?? '') : formValue(fields, 'metadata', true),
    autoProvision: {
      enabled: settings['config.auto_provision.enabled'] ?? null,
      defaultRoleId: settings['config.auto_provision.default_role_id'],
      roleProvision: settings['config.auto_provision.role_provision'] ?? null,
    },
    mappings: (fields.principal_attribute_mappings ?? []).filter((v): v is string => typeof v === 'string'),
  };
}

/** A kind's display config; the icon's fields are checked by the service, which names the one that is wrong. */
const iconConfig = z.object(
  {
    icon: z.object(
      { type: z.string().nullish(), name: z.string().nullish(), color: z.string().nullish() },
      { error: 'must be an object.' },
    ),
  },
  { error: 'must be an object with an icon.' },
);

/** BloodHound's spellings of the closed sets REST takes (a number or a lower-case name) → the GraphQL enum. */
const spelled = <N extends string>(spellings: Record<string, N>, error: string) => {
  const names = new Map(Object.entries(spellings));
  return z.union([z.number(), z.string()], { error }).transform((v, ctx) => {
    const name = names.get(String(v));
    if (!name) ctx.addIssue({ code: 'custom', message: error });
    return name ?? z.NEVER;
  });
};
const tagType = spelled({ 1: 'ZONE', zone: 'ZONE', 2: 'LABEL', label: 'LABEL' }, 'must be "zone" (1) or "label" (2).');
const certifyAction = spelled(
  { 2: 'CERTIFY', certify: 'CERTIFY', 1: 'REVOKE', revoke: 'REVOKE' },
  'must be 2 or "certify" (the default), or 1 or "revoke".',
);
const SEED_TYPES = new Map<string, SeedType>([
  ['1', 'OBJECTID'],
  ['objectid', 'OBJECTID'],
  ['kind', 'KIND'],
  ['rule', 'RULE'],
  ['2', 'CYPHER'],
  ['cypher', 'CYPHER'],
]);

/** The fields of a tag both create and update take; the values are checked by the service. */
const tagFields = {
  name: z.string().nullish(),
  description: z.string().nullish(),
  require_certify: z.boolean().nullish(),
  analysis_enabled: z.boolean().nullish(),
  glyph: z.string().nullish(),
};
const tagInput = (b: z.output<z.ZodObject<typeof tagFields>>) => ({
  name: b.name,
  description: b.description,
  requireCertify: b.require_certify,
  analysisEnabled: b.analysis_enabled,
  glyph: b.glyph,
});

/** A selector body; a seed type BloodHound does not spell is named with its index, as the service names values. */
export const selectorBody = z.object({
  name: z.string().nullish(),
  description: z.string().nullish(),
  seeds: z.array(z.object({ type: z.union([z.number(), z.string()]).nullish(), value: z.string() })).nullish(),
  auto_certify: z.boolean().nullish(),
});
/** Seeds as REST spells them (a type number or name) as GraphQL's AssetGroupSeedInput. */
export const seedsInput = (seeds: z.output<typeof selectorBody>['seeds']) =>
  seeds?.map((seed, i) => {
    const type = SEED_TYPES.get(String(seed.type));
    if (!type) throw badRequest('asset-group-tags', `seeds[${i}].type must be "objectid" (or 1), "cypher" (or 2), "kind" or "rule".`);
    return { type, value: seed.value };
  });
function selectorInput(b: z.output<typeof selectorBody>) {
  return { name: b.name, description: b.description, seeds: seedsInput(b.seeds), autoCertify: b.auto_certify };
}

const id = intText(1);
const tagParams = z.object({ tag_id: id });
const selectorParams = z.object({ tag_id: id, selector_id: id });
const kindParams = z.object({ kind_name: z.string() });
const slugParams = z.object({ slug: z.string() });

/**
 * Browsers get a redirect to the web app with its HttpOnly session cookie (src/auth/session-cookie.ts); API clients
 * asking for JSON get the login result.
 */
function loginAnswer(login: { userId: string; sessionToken: string; authExpired: boolean }, req: RestRequest) {
  const accept = String(req.headers.accept ?? '');
  if (/application\/json/i.test(accept)) {
    return data({ user_id: login.userId, session_token: login.sessionToken, auth_expired: login.authExpired });
  }
  return {
    status: 302,
    headers: {
      Location: '/ui/login?sso=ok',
      'Set-Cookie': sessionCookie(login.sessionToken, { secure: req.secure ?? false }),
    },
  };
}

/**
 * A browser the IdP posted a refused SAML response for (a page navigation asks for HTML) lands on the sign-in page,
 * which says so; API clients get the error document. The reason is logged, never put in the URL.
 */
function samlRefusedLanding(err: unknown, req: RestRequest) {
  if (!asAppError(err) || !/text\/html/i.test(String(req.headers.accept ?? ''))) return undefined;
  return { status: 302, headers: { Location: '/ui/login?sso=refused' } };
}

/**
 * Identity and display administration: SAML providers (2, 3) and SSO login, custom node kinds (4), asset group
 * tags with selectors and members, member certification (5), and runtime parameters.
 */
export const adminRoutes = [
  ...configRoutes,
  // 3
  route('POST', '/api/v2/saml/providers', 'saml', 'CreateSamlProvider', {
    body: 'multipart',
    input: { body: z.custom<FormFields>().default({}) },
    variables: ({ body }) => samlForm(body),
    reshape: ({ createSamlProvider }) => data(shape.samlProvider(createSamlProvider)),
  }),
  // 2
  route('GET', '/api/v2/saml/providers/:saml_provider_id', 'saml', 'GetSamlProvider', {
    deprecatedBy: '/api/v2/sso-providers',
    input: { params: z.object({ saml_provider_id: id }) },
    variables: ({ params }) => ({ id: params.saml_provider_id }),
    reshape: ({ samlProvider }) => data(shape.samlProvider(samlProvider)),
  }),
  route('GET', '/api/v2/sso-providers', 'sso', 'ListSsoProviders', {
    reshape: ({ ssoProviders }) => data(ssoProviders.map(shape.ssoProvider)),
  }),
  // BloodHound's update of a SAML provider: the create form, every field optional. A JSON body updates an OIDC
  // provider (src/rest/routes/sso.ts).
  route('PATCH', '/api/v2/sso-providers/:sso_provider_id', 'sso', 'UpdateSamlProvider', {
    body: 'json-or-multipart',
    when: ({ body }) => isForm(body),
    input: { params: z.object({ sso_provider_id: id }), body: z.custom<FormFields>().default({}) },
    variables: ({ params, body }) => {
      const f = samlForm(body, true);
      return { id: params.sso_provider_id, ...f, name: f.name || null, metadata: f.metadata || null };
    },
    reshape: ({ updateSamlProvider }) => data(shape.samlProvider(updateSamlProvider)),
  }),
  route('DELETE', '/api/v2/sso-providers/:sso_provider_id', 'sso', 'DeleteSsoProvider', {
    input: { params: z.object({ sso_provider_id: id }) },
    variables: ({ params }) => ({ id: params.sso_provider_id }),
    reshape: noContent,
  }),
  route('GET', '/api/v2/sso/:slug/metadata', 'sso', 'SamlMetadata', {
    input: { params: slugParams },
    variables: ({ params }) => ({ slug: params.slug }),
    reshape: ({ samlMetadata }) => ({ raw: { data: Buffer.from(samlMetadata), contentType: 'application/samlmetadata+xml' } }),
  }),
  route('POST', '/api/v2/sso/:slug/callback', 'sso', 'SamlCallback', {
    body: 'form',
    input: { params: slugParams, body: z.object({ SAMLResponse: z.string().min(1, 'is missing from the form.') }) },
    variables: ({ params, body }) => ({ slug: params.slug, samlResponse: body.SAMLResponse }),
    reshape: ({ samlCallback }, req) => loginAnswer(samlCallback, req),
    refused: samlRefusedLanding,
  }),

  // custom node kinds
  route('GET', '/api/v2/custom-nodes', 'custom-nodes', 'ListCustomNodeKinds', {
    reshape: ({ customNodeKinds }) => data(customNodeKinds.map(shape.customNodeKind)),
  }),
  route('GET', '/api/v2/custom-nodes/:kind_name', 'custom-nodes', 'GetCustomNodeKind', {
    input: { params: kindParams },
    variables: ({ params }) => ({ kindName: params.kind_name }),
    reshape: ({ customNodeKind }) => data(shape.customNodeKind(customNodeKind)),
  }),
  route('POST', '/api/v2/custom-nodes', 'custom-nodes', 'CreateCustomNodeKinds', {
    body: 'json',
    input: { body: z.object({ custom_types: z.record(z.string(), iconConfig, { error: 'must be an object of kind name → {icon}.' }) }) },
    variables: ({ body }) => ({ kinds: Object.entries(body.custom_types).map(([kindName, config]) => ({ kindName, config })) }),
    reshape: ({ createCustomNodeKinds }) => ({ status: 201, body: { data: createCustomNodeKinds.map(shape.customNodeKind) } }),
  }),
  // 4: the kind object itself, not wrapped in data
  route('PUT', '/api/v2/custom-nodes/:kind_name', 'custom-nodes', 'UpdateCustomNodeKind', {
    body: 'json',
    input: { params: kindParams, body: z.object({ config: iconConfig }) },
    variables: ({ params, body }) => ({ kindName: params.kind_name, config: body.config }),
    reshape: ({ updateCustomNodeKind }) => ({ body: shape.customNodeKind(updateCustomNodeKind) }),
  }),
  route('DELETE', '/api/v2/custom-nodes/:kind_name', 'custom-nodes', 'DeleteCustomNodeKind', {
    input: { params: kindParams },
    variables: ({ params }) => ({ kindName: params.kind_name }),
    reshape: noContent,
  }),

  // asset group tags (zones and labels)
  // 5
  route('POST', '/api/v2/asset-group-tags/certifications', 'asset-group-tags', 'CertifyMembers', {
    body: 'json',
    input: {
      body: z.object({
        member_ids: z
          .array(z.unknown())
          .refine((ids) => ids.every((i) => Number.isSafeInteger(i)), 'must hold positive integers only.')
          .transform((ids) => ids as number[])
          .nullish(),
        note: z.string().nullish(),
        action: certifyAction.nullish(),
      }),
    },
    variables: ({ body }) => ({ memberIds: body.member_ids ?? null, note: body.note ?? null, action: body.action ?? null }),
    reshape: ({ certifyMembers: c }) => data({ ...c, action: c.action.toLowerCase() }),
  }),
  route('GET', '/api/v2/asset-group-tags', 'asset-group-tags', 'ListAssetGroupTags', {
    response: { schema: ZONES.tags },
    reshape: ({ assetGroupTags }) => data({ tags: assetGroupTags.map(shape.tag) }),
  }),
  route('POST', '/api/v2/asset-group-tags', 'asset-group-tags', 'CreateAssetGroupTag', {
    response: { status: 201, schema: ZONES.tag },
    body: 'json',
    input: { body: z.object({ type: tagType.nullish(), position: z.number().nullish(), ...tagFields }) },
    variables: ({ body }) => ({ input: { type: body.type, position: body.position, ...tagInput(body) } }),
    reshape: ({ createAssetGroupTag }) => ({ status: 201, body: { data: shape.tag(createAssetGroupTag) } }),
  }),
  route('GET', '/api/v2/asset-group-tags/:tag_id', 'asset-group-tags', 'GetAssetGroupTag', {
    response: { schema: ZONES.tagWrapped },
    input: { params: tagParams },
    variables: ({ params }) => ({ id: params.tag_id }),
    // BloodHound answers one tag as {data: {tag}} (getAssetGroupTagResponse).
    reshape: ({ assetGroupTag }) => data({ tag: shape.tag(assetGroupTag) }),
  }),
  route('PATCH', '/api/v2/asset-group-tags/:tag_id', 'asset-group-tags', 'UpdateAssetGroupTag', {
    response: { schema: ZONES.tag },
    body: 'json',
    input: { params: tagParams, body: z.object(tagFields) },
    variables: ({ params, body }) => ({ id: params.tag_id, input: tagInput(body) }),
    reshape: ({ updateAssetGroupTag }) => data(shape.tag(updateAssetGroupTag)),
  }),
  route('DELETE', '/api/v2/asset-group-tags/:tag_id', 'asset-group-tags', 'DeleteAssetGroupTag', {
    response: { status: 204 },
    input: { params: tagParams },
    variables: ({ params }) => ({ id: params.tag_id }),
    reshape: noContent,
  }),
  // BloodHound's pagination envelope around {selectors}, 50 a page by default.
  route('GET', '/api/v2/asset-group-tags/:tag_id/selectors', 'asset-group-tags', 'ListAssetGroupSelectors', {
    response: { schema: ZONES.selectors },
    input: { params: tagParams, query: z.object({ skip: query.int(), limit: query.int() }) },
    variables: ({ params, query }) => ({ id: params.tag_id, skip: query.skip, limit: query.limit }),
    reshape: ({ assetGroupTag: { selectorList: l } }) => ({
      body: { count: l.totalCount, skip: l.skip, limit: l.limit, data: { selectors: l.selectors.map(shape.selector) } },
    }),
  }),
  route('POST', '/api/v2/asset-group-tags/:tag_id/selectors', 'asset-group-tags', 'CreateAssetGroupSelector', {
    response: { status: 201, schema: ZONES.selector },
    body: 'json',
    input: { params: tagParams, body: selectorBody },
    variables: ({ params, body }) => ({ tagId: params.tag_id, input: selectorInput(body) }),
    reshape: ({ createAssetGroupSelector }) => ({ status: 201, body: { data: shape.selector(createAssetGroupSelector) } }),
  }),
  route('PATCH', '/api/v2/asset-group-tags/:tag_id/selectors/:selector_id', 'asset-group-tags', 'UpdateAssetGroupSelector', {
    response: { schema: ZONES.selector },
    body: 'json',
    input: { params: selectorParams, body: selectorBody },
    variables: ({ params, body }) => ({ tagId: params.tag_id, id: params.selector_id, input: selectorInput(body) }),
    reshape: ({ updateAssetGroupSelector }) => data(shape.selector(updateAssetGroupSelector)),
  }),
  route('DELETE', '/api/v2/asset-group-tags/:tag_id/selectors/:selector_id', 'asset-group-tags', 'DeleteAssetGroupSelector', {
    response: { status: 204 },
    input: { params: selectorParams },
    variables: ({ params }) => ({ tagId: params.tag_id, id: params.selector_id }),
    reshape: noContent,
  }),
  route('GET', '/api/v2/asset-group-tags/:tag_id/members', 'asset-group-tags', 'ListAssetGroupMembers', {
    response: { schema: ZONES.members },
    input: { params: tagParams, query: z.object({ skip: query.int(), limit: query.int(), selector_id: query.int(1) }) },
    variables: ({ params, query }) => ({ id: params.tag_id, skip: query.skip, limit: query.limit, selectorId: query.selector_id }),
    reshape: ({ assetGroupTag: { members: m } }) => ({
      body: { count: m.totalCount, skip: m.skip, limit: m.limit, data: { members: m.members.map(shape.member) } },
    }),
  }),
  route('GET', '/api/v2/asset-group-tags/:tag_id/members/:member_id', 'asset-group-tags', 'GetAssetGroupMember', {
    input: { params: z.object({ tag_id: id, member_id: id }) },
    variables: ({ params }) => ({ tagId: params.tag_id, memberId: params.member_id }),
    reshape: ({ assetGroupMember: m }) =>
      data({
        member: {
          ...shape.member(m.member),
          selectors: m.selectors.map(shape.selector),
          certification_history: m.history.map(shape.certification),
        },
      }),
  }),
];

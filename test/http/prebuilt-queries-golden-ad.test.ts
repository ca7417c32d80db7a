import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { PREBUILT_QUERIES } from '../../src/services/queries/prebuilt/index';
import { TRAVERSABLE_KINDS } from '../../src/graph/kinds';
import { useTestApp } from '../helpers/app';
import { GRAPHIFY } from '../helpers/fixtures';
import { answerOf, FixtureGraph } from '../helpers/prebuilt';

interface Golden {
  graph: {
    nodes: { id: string; kinds: string[]; properties: Record<string, unknown> }[];
    edges: { start: { value: string }; end: { value: string }; kind: string; properties: Record<string, unknown> }[];
  };
}
/** BloodHound's own graph of TESTLAB.LOCAL after its analysis (graphify-v6/analysis/analyzed.json). */
const golden = JSON.parse(fs.readFileSync(path.join(GRAPHIFY, 'analysis', 'analyzed.json'), 'utf8')) as Golden;

/**
 * The Active Directory pre-built queries on BloodHound's analyzed TESTLAB.LOCAL graph, loaded as it is into our
 * store: each answer (the object ids of its result's nodes) must be what BloodHound's semantics give on that
 * graph, computed here from the fixture by plain code, not by our engine.
 */
describe('pre-built queries on BloodHound’s analyzed TESTLAB graph', () => {
  const t = useTestApp();
  const g = new FixtureGraph();
  for (const n of golden.graph.nodes) g.addNode(n.id, n.kinds, n.properties);
  for (const e of golden.graph.edges) g.addEdge(e.start.value, e.end.value, e.kind);

  beforeAll(async () => {
    await t.infra.graphStore.write(async (w) => {
      await w.upsertNodes(
        golden.graph.nodes.map((n) => ({ objectid: n.id, kinds: n.kinds, properties: { ...n.properties, objectid: n.id } })),
      );
      await w.upsertEdges(
        golden.graph.edges.map((e) => ({ start: e.start.value, end: e.end.value, kind: e.kind, properties: e.properties })),
      );
    });
  });

  const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
  const rid = (id: string, r: string) => id.endsWith(`-${r}`);
  const base = (id: string) => g.is(id, 'Base');
  const memberOf = new Set(['MemberOf']);
  /** Nodes on some path of `kinds` from `from` to a node passing `target` (the path's ends included). */
  function onPaths(from: string, kinds: ReadonlySet<string>, target: (id: string) => boolean): string[] {
    const ahead = g.reachable(from, kinds);
    const hits = [...ahead].filter(target);
    if (!hits.length) return [];
    const between = [...ahead].filter((v) => target(v) || [...g.reachable(v, kinds)].some(target));
    return [from, ...between];
  }

  it('answers the domain questions: Domain Admins, Tier Zero, domain controllers, trusts', async () => {
    const admins = g.ofKind('Group').filter((id) => rid(id, '512'));
    const members = [...g.nodes.keys()].filter((id) => g.is(id, 'User') || g.is(id, 'Computer'));
    const domainAdmins = sorted(members.flatMap((m) => onPaths(m, memberOf, (v) => admins.includes(v))));
    expect(domainAdmins.length).toBeGreaterThan(1);
    expect(await answerOf(t, 'ad-domain-admins')).toEqual(domainAdmins);
    expect(await answerOf(t, 'ad-tier-zero')).toEqual(sorted(g.ofKind('Tag_Tier_Zero').filter(base)));
    expect(await answerOf(t, 'ad-domain-controllers')).toEqual(
      g.hop(
        ['DCFor'],
        (s) => g.is(s, 'Computer'),
        (e) => g.is(e, 'Domain'),
      ),
    );
    expect(await answerOf(t, 'ad-domain-trusts')).toEqual(
      g.hop(
        ['SameForestTrust', 'CrossForestTrust'],
        (s) => g.is(s, 'Domain'),
        (e) => g.is(e, 'Domain'),
      ),
    );
    const contains = new Set(['Contains']);
    expect(await answerOf(t, 'ad-tier-zero-locations')).toEqual(
      sorted(g.ofKind('Domain').flatMap((d) => onPaths(d, contains, (v) => g.is(v, 'Tag_Tier_Zero')))),
    );
  });

  it('answers the privilege questions: DCSync, foreign membership, Domain Admin sessions off the DCs', async () => {
    const dcsync = g.hop(['DCSync', 'AllExtendedRights', 'GenericAll'], base, (e) => g.is(e, 'Domain'));
    expect(dcsync.length).toBeGreaterThan(1);
    expect(await answerOf(t, 'ad-dcsync')).toEqual(dcsync);
    const sid = (id: string) => g.prop(id, 'domainsid');
    expect(await answerOf(t, 'ad-foreign-group-membership')).toEqual(
      g.hop(['MemberOf'], base, (e) => g.is(e, 'Group')).length
        ? sorted(
            g.edges
              .filter((e) => e.kind === 'MemberOf' && base(e.start) && g.is(e.end, 'Group'))
              .filter((e) => sid(e.start) != null && sid(e.end) != null && sid(e.start) !== sid(e.end))
              .flatMap((e) => [e.start, e.end]),
          )
        : [],
    );
    // Domain Admins with a session on a computer that is not a domain controller (member of -516, nested or not)
    const dcs = new Set([...g.nodes.keys()].filter((id) => [...g.reachable(id, memberOf)].some((v) => rid(v, '516') && g.is(v, 'Group'))));
    const admins = g.ofKind('Group').filter((id) => rid(id, '512'));
    const expected = g.edges
      .filter((e) => e.kind === 'HasSession' && g.is(e.start, 'Computer') && g.is(e.end, 'User') && !dcs.has(e.start))
      .flatMap((e) => {
        const via = onPaths(e.end, memberOf, (v) => admins.includes(v));
        return via.length ? [e.start, ...via] : [];
      });
    expect(expected.length).toBeGreaterThan(0);
    expect(await answerOf(t, 'ad-domain-admin-sessions')).toEqual(sorted(expected));
  });

  it('answers the Kerberos questions: Kerberoastable (none here: only krbtgt has an SPN) and AS-REP roastable', async () => {
    const users = g.ofKind('User');
    const kerberoastable = users.filter(
      (u) =>
        g.prop(u, 'hasspn') === true &&
        g.prop(u, 'enabled') === true &&
        !rid(u, '502') &&
        g.prop(u, 'gmsa') !== true &&
        g.prop(u, 'msa') !== true,
    );
    expect(await answerOf(t, 'ad-kerberoastable')).toEqual(sorted(kerberoastable));
    expect(users.some((u) => g.prop(u, 'hasspn') === true)).toBe(true); // krbtgt: the filter, not the data, excludes it
    expect(await answerOf(t, 'ad-asrep-roastable')).toEqual(
      sorted(users.filter((u) => g.prop(u, 'dontreqpreauth') === true && g.prop(u, 'enabled') === true)),
    );
    expect(await answerOf(t, 'ad-password-not-required')).toEqual(sorted(users.filter((u) => g.prop(u, 'passwordnotreqd') === true)));
  });

  it('answers the delegation questions: unconstrained, constrained, resource-based and who can configure it', async () => {
    const unconstrained = [...g.nodes.keys()].filter((id) => base(id) && g.prop(id, 'unconstraineddelegation') === true);
    expect(unconstrained.length).toBeGreaterThan(0);
    // the domain controllers are trusted for unconstrained delegation too, and are Tier Zero: left out
    expect(unconstrained.some((id) => g.is(id, 'Tag_Tier_Zero'))).toBe(true);
    expect(await answerOf(t, 'ad-unconstrained-delegation')).toEqual(sorted(unconstrained.filter((id) => !g.is(id, 'Tag_Tier_Zero'))));
    const computer = (e: string) => g.is(e, 'Computer');
    expect(await answerOf(t, 'ad-constrained-delegation')).toEqual(g.hop(['AllowedToDelegate'], base, computer));
    expect(await answerOf(t, 'ad-resource-based-constrained-delegation')).toEqual(g.hop(['AllowedToAct'], base, computer));
    expect(await answerOf(t, 'ad-rbcd-writers')).toEqual(g.hop(['AddAllowedToAct', 'WriteAccountRestrictions'], base, computer));
    expect(await answerOf(t, 'ad-cross-forest-abusable')).toEqual(
      g.hop(
        ['SpoofSIDHistory', 'AbuseTGTDelegation'],
        (s) => g.is(s, 'Domain'),
        (e) => g.is(e, 'Domain'),
      ),
    );
  });

  it('answers the shortest-path questions: every principal with a path is in the answer, and only nodes on such paths', async () => {
    // AD_ATTACK_PATHS: BloodHound's AD pathfinding kinds (SyncedToEntraUser included, the Azure ones not)
    const kinds = new Set([...TRAVERSABLE_KINDS].filter((k) => !k.startsWith('AZ') && k !== 'SyncedToADUser'));
    const admins = g.ofKind('Group').filter((id) => rid(id, '512'));
    // sources: every Base node from which a Domain Admins group is reachable over attack-path edges
    const sources = [...g.nodes.keys()].filter(
      (s) => base(s) && !admins.includes(s) && [...g.reachable(s, kinds)].some((v) => admins.includes(v)),
    );
    expect(sources.length).toBeGreaterThan(3);
    const answer = await answerOf(t, 'ad-paths-to-domain-admins');
    expect(answer).toEqual(expect.arrayContaining([...sources, ...admins]));
    const onSomePath = new Set([...sources, ...admins, ...sources.flatMap((s) => [...g.reachable(s, kinds)])]);
    expect(answer.filter((id) => !onSomePath.has(id))).toEqual([]);

    // from Domain Users to Tier Zero: every Tier Zero object Domain Users reach is in the answer
    const domainUsers = g.ofKind('Group').filter((id) => rid(id, '513'));
    const reached = domainUsers.flatMap((d) => [...g.reachable(d, kinds)].filter((v) => g.is(v, 'Tag_Tier_Zero') && v !== d));
    const fromDU = await answerOf(t, 'ad-paths-domain-users-to-tier-zero');
    expect(fromDU).toEqual(expect.arrayContaining(reached));
    const reachable = new Set([...domainUsers, ...domainUsers.flatMap((d) => [...g.reachable(d, kinds)])]);
    expect(fromDU.filter((id) => !reachable.has(id))).toEqual([]);

    // nested groups of Tier Zero groups, Domain Admins and Enterprise Admins left out as sources
    const t0Group = (v: string) => g.is(v, 'Group') && g.is(v, 'Tag_Tier_Zero');
    const nested = g.ofKind('Group').filter((s) => !rid(s, '512') && !rid(s, '519'));
    expect(await answerOf(t, 'ad-tier-zero-nested-groups')).toEqual(sorted(nested.flatMap((s) => onPaths(s, memberOf, t0Group))));
  });

  it('runs every pre-built query of the catalogue: an answer or BloodHound’s empty one, never an error', async () => {
    const failures: string[] = [];
    for (const q of PREBUILT_QUERIES) {
      const res = await request(t.app).post('/api/v2/graphs/cypher').set('Authorization', `Bearer ${t.adminJwt}`).send({ query: q.query });
      if (res.status !== 200 && res.status !== 404) failures.push(`${q.id}: ${res.status} ${JSON.stringify(res.body.errors)}`);
    }
    expect(failures).toEqual([]);
  });
});

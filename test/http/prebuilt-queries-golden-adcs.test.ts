import fs from 'node:fs';
import path from 'node:path';
import { useTestApp } from '../helpers/app';
import { SHARED_FIXTURES } from '../helpers/fixtures';
import { answerOf } from '../helpers/prebuilt';
import { ingestAsAdmin } from '../helpers/upload';

const DIR = path.join(SHARED_FIXTURES, 'sharphound-v6-all');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(DIR, `${f}.json`), 'utf8')).data as Record<string, any>[];
const templates = read('certtemplates');
const [ca] = read('enterprisecas');
/** BloodHound's expected ingest edges of this collection (bloodhound-expected/v6-all-ingest-edges.json). */
const expectedEdges = (
  JSON.parse(fs.readFileSync(path.join(SHARED_FIXTURES, 'bloodhound-expected', 'v6-all-ingest-edges.json'), 'utf8')).edges as string[][]
).map(([startKind, start, kind, endKind, end]) => ({ startKind, start, kind, endKind, end }));

const up = (s: string) => s.toUpperCase();
const sorted = (xs: Iterable<string>) => [...new Set([...xs].map(up))].sort();

/**
 * The AD CS pre-built queries on the ESC1.LOCAL collection (SharpHound v6 with its PKI), ingested and analysed by
 * the service; each expected answer is read from the collection's files (templates' ACEs, the CA's published
 * templates and registry flags) and BloodHound's expected ingest edges, as BloodHound's semantics define it.
 */
describe('pre-built AD CS queries on the ESC1.LOCAL collection', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await ingestAsAdmin(
      t,
      fs.readdirSync(DIR).map((f) => path.join(DIR, f)),
    );
  });

  const published = new Set(ca!.EnabledCertTemplates.map((e: { ObjectIdentifier: string }) => up(e.ObjectIdentifier)));
  const ENROLL_RIGHTS = new Set(['Enroll', 'GenericAll', 'AllExtendedRights']);
  /** Principals with an enrollment right on a published template passing `test`, the templates and the CA. */
  function enrollment(test: (p: Record<string, unknown>) => boolean): string[] {
    const out: string[] = [];
    for (const tpl of templates) {
      if (!published.has(up(tpl.ObjectIdentifier)) || !test(tpl.Properties)) continue;
      const enrollers = tpl.Aces.filter((a: { RightName: string }) => ENROLL_RIGHTS.has(a.RightName)).map(
        (a: { PrincipalSID: string }) => a.PrincipalSID,
      );
      if (enrollers.length) out.push(...enrollers, tpl.ObjectIdentifier, ca!.ObjectIdentifier);
    }
    return sorted(out);
  }

  it('who can enroll in published templates, and in ESC1 templates (subject supplied, authentication, issued as sent)', async () => {
    const all = enrollment(() => true);
    expect(all.length).toBeGreaterThan(10);
    expect(await answerOf(t, 'adcs-enrollment-rights')).toEqual(all);
    const esc1 = enrollment(
      (p) =>
        p.enrolleesuppliessubject === true &&
        p.authenticationenabled === true &&
        p.requiresmanagerapproval === false &&
        (p.authorizedsignatures === 0 || p.schemaversion === 1),
    );
    expect(esc1).toEqual(expect.arrayContaining([up(templates.find((x) => x.Properties.name === 'ESC1@ESC1.LOCAL')!.ObjectIdentifier)]));
    expect(await answerOf(t, 'adcs-esc1-templates')).toEqual(esc1);
    // ESC6: templates of a CA that takes a requested SAN (the CA's registry flag)
    const sanEnabled = ca!.CARegistryData.IsUserSpecifiesSanEnabled?.Value === true;
    expect(await answerOf(t, 'adcs-esc6-templates')).toEqual(sanEnabled ? all : []);
  });

  it('CA managers (ESC7): the CA’s ACL and its registry security descriptor, BloodHound’s edges included', async () => {
    const manages = (a: { RightName: string }) => a.RightName === 'ManageCA' || a.RightName === 'ManageCertificates';
    const principals = [...ca!.Aces, ...ca!.CARegistryData.CASecurity.Data]
      .filter(manages)
      .map((a: { PrincipalSID: string }) => a.PrincipalSID);
    const answer = await answerOf(t, 'adcs-esc7');
    expect(answer).toEqual(sorted([...principals, ca!.ObjectIdentifier]));
    const bloodhounds = expectedEdges.filter((e) => manages({ RightName: e.kind! }) && e.endKind === 'EnterpriseCA');
    expect(bloodhounds.length).toBeGreaterThan(2);
    expect(answer).toEqual(expect.arrayContaining(sorted(bloodhounds.flatMap((e) => [e.start!, e.end!]))));
  });

  it('the CA is hosted where BloodHound says (HostsCAService) and the hierarchy reaches the domain', async () => {
    const host = expectedEdges.find((e) => e.kind === 'HostsCAService')!;
    const pki = await answerOf(t, 'adcs-pki-hierarchy');
    expect(pki).toEqual(expect.arrayContaining(sorted([host.start!, host.end!, read('domains')[0]!.ObjectIdentifier])));
  });
});

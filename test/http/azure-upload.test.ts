import fs from 'node:fs';
import path from 'node:path';
import { useTestApp } from '../helpers/app';
import { uploadJob, useUploads } from '../helpers/upload';
import { zip } from '../helpers/zip';
import { AZURE_UNKNOWN_KINDS, AZUREHOUND, kindsOf } from '../helpers/fixtures';

/**
 * AzureHound output uploaded over REST as a collector does (data before meta, one file or a zip), ingested and
 * analysed by the data pipeline: the Entra and Azure graph lands, what was not converted is reported per file, and
 * a broken file fails alone.
 */
const DIR = AZUREHOUND;
const T = '6C12B0B0-B2CC-4A73-8252-0B94BFCA2145';
const ALICE = '1D8A4C57-5B1F-4C3E-9F59-0F8F9D3F0A11';
const ALICE_AD = 'S-1-5-21-1004336348-1177238915-682003330-1105';

describe('AzureHound file upload', () => {
  const t = useTestApp();
  const uploads = useUploads(t);
  const hasEdge = async (start: string, kind: string, end: string) =>
    (
      await t.testDb.db.query<{ n: number }>(
        `select count(*)::int as n from graph_edges e join graph_nodes s on s.id = e.start_id join graph_nodes x on x.id = e.end_id
         join graph_kinds k on k.id = e.kind_id where s.objectid = $1 and k.name = $2 and x.objectid = $3`,
        [start, kind, end],
      )
    )[0]!.n > 0;

  it('ingests AzureHound files (data first) and a zip of them, then analyses the hybrid identities', async () => {
    const archive = await zip([
      ['20261125_azurehound_resources.json', fs.readFileSync(path.join(DIR, 'resources.json'))],
      ['federated_identity_credentials.json', fs.readFileSync(path.join(DIR, 'bloodhound-fic', 'federated_identity_credentials.json'))],
    ]);
    const id = await uploadJob(t.app, uploads.token, [
      path.join(DIR, 'entra.json'),
      ['azurehound.zip', archive, 'application/zip'],
      path.join(DIR, 'unknown-and-malformed.json'),
    ]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, total_files: 3, failed_files: 0 });

    // the tenant and the Global Administrator role are Tier Zero by the default selectors
    expect(await kindsOf(t.testDb.db, T)).toEqual(['AZBase', 'AZTenant', 'Tag_Tier_Zero']);
    expect(await kindsOf(t.testDb.db, `62E90394-69F5-4237-9190-012177145E10@${T}`)).toEqual(['AZBase', 'AZRole', 'Tag_Tier_Zero']);
    expect(await kindsOf(t.testDb.db, 'F40ABC17-C0BA-4D1D-A4AC-C5025AAE55D6')).toEqual(['AZBase', 'AZFederatedIdentityCredential']);
    expect(await hasEdge(ALICE, 'AZHasRole', `62E90394-69F5-4237-9190-012177145E10@${T}`)).toBe(true);
    expect(await hasEdge('2E9B5D68-6C20-4D4F-8A6A-1A9A0E4A1B22', 'AZRoleEligible', `E8611AB8-C189-46E8-94E1-60213AB1F814@${T}`)).toBe(true);
    expect(
      await hasEdge(
        '8EF1B3CE-C286-43A5-A0C0-7A0A6EAA7B88',
        'AZGetSecrets',
        '/SUBSCRIPTIONS/B1B9D0EA-1A2C-4D2E-9A6F-3F1F2A7C9E01/RESOURCEGROUPS/PROD-RG/PROVIDERS/MICROSOFT.KEYVAULT/VAULTS/PROD-KV',
      ),
    ).toBe(true);
    // Written at ingest (onpremid, onpremsyncenabled), linked by analysis.
    expect(await kindsOf(t.testDb.db, ALICE_AD)).toEqual(['Base', 'User']);
    expect(await hasEdge(ALICE, 'SyncedToADUser', ALICE_AD)).toBe(true);

    // Per-file results: the zip's two entries, and the kinds nothing converts, counted.
    const results = (await uploads.tasks(id)).flatMap(
      (f: { result: { file: string; type: string; unknownKinds?: Record<string, number> }[] }) => f.result,
    );
    expect(results.map((r: { type: string }) => r.type)).toEqual(['azure', 'azure', 'azure', 'azure']);
    const other = results.find((r: { file: string }) => r.file.includes('unknown-and-malformed'));
    expect(other.unknownKinds).toEqual(AZURE_UNKNOWN_KINDS);
  });

  it('fails a broken AzureHound file alone, naming it, and keeps the good one', async () => {
    const body = fs.readFileSync(path.join(DIR, 'resources.json'), 'utf8');
    const id = await uploadJob(t.app, uploads.token, [
      ['broken-azure.json', body.slice(0, body.length / 3)],
      ['fic.json', fs.readFileSync(path.join(DIR, 'bloodhound-fic', 'federated_identity_credentials.json'))],
    ]);
    await t.services.datapipe.drain();
    const job = await uploads.job(id);
    expect(job).toMatchObject({ status: 8, total_files: 2, failed_files: 1 });
    expect(job.status_message).toMatch(/broken-azure\.json/);
    expect(await kindsOf(t.testDb.db, '93C06DCE-346E-41CE-AB5B-2FF937A0595F')).toEqual(['AZBase', 'AZFederatedIdentityCredential']);
  });
});

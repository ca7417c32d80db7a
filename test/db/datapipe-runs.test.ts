import path from 'node:path';
import { createDatapipeStore } from '../../src/db/stores/datapipe/datapipe-store';
import { createDatapipeService } from '../../src/services/datapipe/datapipe';
import { JOB_STATUS } from '../../src/services/common/job-status';
import { useTestApp } from '../helpers/app';
import { testLog } from '../helpers/db';
import { sharphound } from '../helpers/upload';

/**
 * When the data pipeline's runs pick up work: a job ended while a run is finishing
 * joins that run, and must not be left behind when the run ends.
 */
describe('data pipeline runs', () => {
  const t = useTestApp();

  it('ingests a job that was ended while the run’s after-run listener was running', async () => {
    // The administrator's own session, as a signed-in request carries it.
    const s = await t.services.identity.authenticateJwt(t.adminJwt);
    const group = (sid: string) =>
      new File([sharphound('groups', [{ ObjectIdentifier: sid, Properties: { name: sid }, Aces: [] }])], `${sid}.json`, {
        type: 'application/json',
      });
    let late: number | undefined;
    const pipe = createDatapipeService({
      store: createDatapipeStore(t.testDb.db),
      graph: t.infra.graphStore,
      index: t.infra.graphIndex,
      uploadsDir: path.join(t.config.dataDir, 'uploads-runs'),
      log: testLog(),
      pollMs: 0,
      // The first run's listener ends a second job: a collector whose "end" arrives at that moment.
      onRunEnd: async () => {
        if (late !== undefined) return;
        const job = await pipe.startUpload(s);
        late = job.id;
        await pipe.uploadFile(s, job.id, group('S-1-5-21-77-1-2'));
        await pipe.endUpload(s, job.id);
      },
    });
    const first = await pipe.startUpload(s);
    await pipe.uploadFile(s, first.id, group('S-1-5-21-77-1-1'));
    await pipe.endUpload(s, first.id);
    await pipe.drain();
    await pipe.stop();

    const nodes = await t.testDb.db.query<{ objectid: string }>(
      `select objectid from graph_nodes where objectid like 'S-1-5-21-77-1-%' order by objectid`,
    );
    expect(nodes.map((n) => n.objectid)).toEqual(['S-1-5-21-77-1-1', 'S-1-5-21-77-1-2']);
    expect((await pipe.job(s, late!)).status).toBe(JOB_STATUS.complete);
  });
});

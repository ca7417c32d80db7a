import * as collectors from '../../../src/rest/reshape/collectors';
import * as graph from '../../../src/rest/reshape/graph';
import * as identity from '../../../src/rest/reshape/identity';
import { nullInt32, nullTime, time } from '../../../src/rest/shapes';

const ZERO_TIME = '0001-01-01T00:00:00Z';

describe('REST reshape: GraphQL results → the API document', () => {
  it('wraps nullable values as BloodHound marshals its Go types', () => {
    expect(nullTime(null)).toEqual({ time: ZERO_TIME, valid: false });
    expect(nullTime('2026-01-02T03:04:05Z')).toEqual({ time: '2026-01-02T03:04:05Z', valid: true });
    expect(nullInt32(0)).toEqual({ int32: 0, valid: true });
    expect(time(undefined)).toBe(ZERO_TIME);
  });

  it('renames a token, keeps its key only when there is one, and falls back to created_at for last_access', () => {
    const t = {
      id: 'a',
      name: null,
      userId: 'u',
      key: null,
      hmacMethod: 'hmac-sha2-256',
      lastAccess: null,
      createdAt: 'c',
      updatedAt: 'u',
      deletedAt: null,
    };
    const out = identity.token(t);
    expect(out).toMatchObject({ id: 'a', name: { string: '', valid: false }, user_id: { uuid: 'u', valid: true }, last_access: 'c' });
    expect(out).not.toHaveProperty('key');
    expect(identity.token({ ...t, key: 'secret' })).toHaveProperty('key', 'secret');
  });

  it('gives an event its OUs hydrated when selected, else their object ids', () => {
    const e = {
      id: 1,
      clientId: 'c',
      rrule: 'r',
      nextScheduledAt: null,
      sessionCollection: false,
      localGroupCollection: true,
      adStructureCollection: false,
      certServicesCollection: false,
      caRegistryCollection: false,
      dcRegistryCollection: false,
      allTrustedDomains: false,
      ouIds: ['OU1'],
      domainIds: [],
      createdAt: 'x',
      updatedAt: 'y',
      deletedAt: null,
    };
    expect(collectors.event(e)).toMatchObject({
      ous: ['OU1'],
      next_scheduled_at: ZERO_TIME,
      session_collection: false,
      local_group_collection: true,
    });
    const hydrated = collectors.event({
      ...e,
      ous: [{ objectId: 'OU1', name: 'ou', exists: true, distinguishedName: 'OU=ou', type: 'OU' }],
      domains: [],
    });
    expect(hydrated.ous).toEqual([{ objectid: 'OU1', name: 'ou', exists: true, distinguishedname: 'OU=ou', type: 'OU' }]);
  });

  it('pages node lists in the envelope and reports path counts as headers', () => {
    expect(
      graph.nodeList({ totalCount: 3, skip: 1, limit: 1, nodes: [{ objectId: 'O', name: 'n', label: 'User', kinds: ['User'] }] }),
    ).toEqual({
      body: { count: 3, skip: 1, limit: 1, data: [{ objectID: 'O', name: 'n', label: 'User', kinds: ['User'] }] },
    });
    expect(graph.paths({ graph: { nodes: {}, edges: [] }, pathCount: 2, truncated: false, length: 3 })).toEqual({
      body: { data: { nodes: {}, edges: [] } },
      headers: { 'Path-Count': '2', 'Paths-Truncated': 'false' },
    });
  });

  it('shows a client without a current job as Go zero values (status -1)', () => {
    const c = collectors.client({
      id: 'c',
      name: 'collector',
      type: 'COLLECTOR_AD',
      ipAddress: '',
      hostname: '',
      configuredUser: '',
      version: '',
      userSid: null,
      domainController: null,
      lastCheckin: null,
      completedJobCount: 0,
      completedTaskCount: 0,
      token: null,
      events: [],
      currentJob: null,
      currentTask: null,
      createdAt: 'x',
      updatedAt: 'y',
    });
    expect(c).toMatchObject({ current_job_id: { int64: 0, valid: false }, current_job: { id: 0, status: -1 }, last_checkin: ZERO_TIME });
  });
});

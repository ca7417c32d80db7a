import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ClientsDocument,
  CreateClientDocument,
  CreateEventDocument,
  DeleteClientDocument,
  DeleteEventDocument,
  type ClientType,
} from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { JOB_STATUS } from '../../core/ingest/status';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';
import { useAdminAction } from './useAdminMutation';

const KEY = ['admin', 'clients'];

/** Collectors (enterprise): clients with their token, scheduled collection events, recent collection jobs. */
export function ClientsAdmin() {
  const q = useQuery({ queryKey: KEY, queryFn: () => gql(ClientsDocument), refetchInterval: 15_000 });
  const action = useAdminAction(KEY);
  const [name, setName] = useState('');
  const [type, setType] = useState<ClientType>('COLLECTOR_AD');
  const [key, setKey] = useState<{ id: string; key: string } | null>(null);
  const [eventClient, setEventClient] = useState('');
  const [rrule, setRrule] = useState('DTSTART:20260101T020000Z\nRRULE:FREQ=DAILY');
  const [sessions, setSessions] = useState(true);
  const [structure, setStructure] = useState(true);
  const clients = q.data?.clients.clients ?? [];
  const names = new Map(clients.map((c) => [c.id, c.name]));
  return (
    <div>
      <h1>Collectors</h1>
      <ErrorMessage error={q.error ?? action.error} />
      {action.message && <p role="status">{action.message}</p>}
      <form
        className="card inline-form"
        aria-label="Register collector"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            const { createClient } = await gql(CreateClientDocument, { input: { name, type } });
            setKey(createClient.token?.key ? { id: createClient.token.id, key: createClient.token.key } : null);
            setName('');
            return `Collector ${createClient.name} registered.`;
          });
        }}
      >
        <div className="field">
          <label htmlFor="cl-name">Collector name</label>
          <input id="cl-name" value={name} onChange={(e) => setName(e.target.value)} required />
        </div>
        <div className="field">
          <label htmlFor="cl-type">Type</label>
          <select id="cl-type" value={type} onChange={(e) => setType(e.target.value as ClientType)}>
            <option value="COLLECTOR_AD">SharpHound (Active Directory)</option>
            <option value="COLLECTOR_AZURE">AzureHound (Azure)</option>
            <option value="COLLECTOR_OPEN">OpenGraph</option>
          </select>
        </div>
        <button type="submit" className="primary">
          Register
        </button>
      </form>
      {key && (
        <div className="card" role="status">
          Token <code>{key.id}</code>; its key, shown once: <div className="secret">{key.key}</div>
        </div>
      )}
      {q.isPending && <Loading label="Loading collectors" />}
      <table className="data" aria-label="Collectors">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Host</th>
            <th scope="col">Version</th>
            <th scope="col">Last check-in</th>
            <th scope="col">Current job</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.id}>
              <td>{c.name}</td>
              <td>{c.type}</td>
              <td>{c.hostname}</td>
              <td>{c.version}</td>
              <td>{c.lastCheckin ? new Date(c.lastCheckin).toLocaleString() : 'Never'}</td>
              <td>{c.currentJob ? `#${c.currentJob.id} ${JOB_STATUS[c.currentJob.status]}` : '—'}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  onClick={() =>
                    void action.run(async () => {
                      await gql(DeleteClientDocument, { id: c.id });
                      return `Collector ${c.name} deleted.`;
                    })
                  }
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Scheduled collections</h2>
      <form
        className="card inline-form"
        aria-label="Schedule collection"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            await gql(CreateEventDocument, {
              input: { clientId: eventClient, rrule, sessionCollection: sessions, adStructureCollection: structure },
            });
            return `Collection scheduled for ${names.get(eventClient)}.`;
          });
        }}
      >
        <div className="field">
          <label htmlFor="ev-client">Collector</label>
          <select id="ev-client" value={eventClient} onChange={(e) => setEventClient(e.target.value)} required>
            <option value="">Choose…</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor="ev-rrule">Schedule (RFC 5545 rule)</label>
          <textarea id="ev-rrule" rows={2} value={rrule} onChange={(e) => setRrule(e.target.value)} />
        </div>
        <label style={{ display: 'flex', gap: 6, fontWeight: 400 }}>
          <input type="checkbox" style={{ width: 'auto' }} checked={sessions} onChange={(e) => setSessions(e.target.checked)} /> Sessions
        </label>
        <label style={{ display: 'flex', gap: 6, fontWeight: 400 }}>
          <input type="checkbox" style={{ width: 'auto' }} checked={structure} onChange={(e) => setStructure(e.target.checked)} /> AD
          structure
        </label>
        <button type="submit">Schedule</button>
      </form>
      <table className="data" aria-label="Scheduled collections">
        <thead>
          <tr>
            <th scope="col">Collector</th>
            <th scope="col">Rule</th>
            <th scope="col">Next run</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {q.data?.events.events.map((ev) => (
            <tr key={ev.id}>
              <td>{names.get(ev.clientId) ?? ev.clientId}</td>
              <td className="mono">{ev.rrule}</td>
              <td>{ev.nextScheduledAt ? new Date(ev.nextScheduledAt).toLocaleString() : '—'}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  onClick={() =>
                    void action.run(async () => {
                      await gql(DeleteEventDocument, { id: ev.id });
                      return 'Schedule deleted.';
                    })
                  }
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Recent collection jobs</h2>
      <table className="data" aria-label="Collection jobs">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Collector</th>
            <th scope="col">Status</th>
            <th scope="col">Scheduled</th>
            <th scope="col">Ended</th>
          </tr>
        </thead>
        <tbody>
          {q.data?.collectionJobs.jobs.map((j) => (
            <tr key={j.id}>
              <td>{j.id}</td>
              <td>{j.clientName}</td>
              <td>
                {JOB_STATUS[j.status]} {j.statusMessage && <span className="muted">{j.statusMessage}</span>}
              </td>
              <td>{new Date(j.executionTime).toLocaleString()}</td>
              <td>{j.endTime ? new Date(j.endTime).toLocaleString() : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  CertifyMembersDocument,
  CreateSelectorDocument,
  CreateTagDocument,
  DeleteSelectorDocument,
  DeleteTagDocument,
  TagMembersDocument,
} from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { TAGS_KEY, useTags } from '../../core/explore/hooks';
import type { Tag } from '../../core/zones/membership';
import { formatSeed, parseSeeds } from '../../core/zones/seeds';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';
import { useAdminAction } from './useAdminMutation';

/** Zones and labels: make and delete them, their selectors (seeds by object id, kind or rule), members and certification. */
export function ZonesAdmin() {
  const tags = useTags();
  const action = useAdminAction(TAGS_KEY);
  const [type, setType] = useState<'ZONE' | 'LABEL'>('LABEL');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [certify, setCertify] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div>
      <h1>Zones and labels</h1>
      <form
        className="card inline-form"
        aria-label="Create zone or label"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            await gql(CreateTagDocument, { input: { type, name, description, requireCertify: type === 'ZONE' ? certify : undefined } });
            setName('');
            setDescription('');
            return `${type === 'ZONE' ? 'Zone' : 'Label'} ${name} created.`;
          });
        }}
      >
        <div className="field">
          <label htmlFor="tag-type">Type</label>
          <select id="tag-type" value={type} onChange={(e) => setType(e.target.value as 'ZONE' | 'LABEL')}>
            <option value="LABEL">Label</option>
            <option value="ZONE">Zone</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="tag-name">Name</label>
          <input id="tag-name" value={name} onChange={(e) => setName(e.target.value)} required />
        </div>
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor="tag-desc">Description</label>
          <input id="tag-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        {type === 'ZONE' && (
          <label style={{ display: 'flex', gap: 6, fontWeight: 400 }}>
            <input type="checkbox" style={{ width: 'auto' }} checked={certify} onChange={(e) => setCertify(e.target.checked)} /> Members
            need certification
          </label>
        )}
        <button type="submit" className="primary">
          Create
        </button>
      </form>
      <ErrorMessage error={tags.error ?? action.error} />
      {action.message && <p role="status">{action.message}</p>}
      {tags.isPending && <Loading label="Loading zones and labels" />}
      <table className="data" aria-label="Zones and labels">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Members</th>
            <th scope="col">Selectors</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {tags.data?.assetGroupTags.map((t) => (
            <TagRows key={t.id} tag={t} open={open === t.id} onToggle={() => setOpen(open === t.id ? null : t.id)} run={action.run} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TagRows({
  tag,
  open,
  onToggle,
  run,
}: {
  tag: Tag;
  open: boolean;
  onToggle(): void;
  run(fn: () => Promise<string | void>): Promise<unknown>;
}) {
  const [selName, setSelName] = useState('');
  const [seeds, setSeeds] = useState('');
  const members = useQuery({
    queryKey: [...TAGS_KEY, 'members', tag.id, 'admin'],
    queryFn: () => gql(TagMembersDocument, { id: tag.id, limit: 100 }),
    enabled: open,
  });
  return (
    <>
      <tr>
        <td>
          <strong>{tag.name}</strong>
          <div className="muted">{tag.description}</div>
        </td>
        <td>{tag.type === 'ZONE' ? `Zone ${tag.position ?? ''}` : 'Label'}</td>
        <td>{tag.memberCount.toLocaleString()}</td>
        <td>{tag.selectors.length}</td>
        <td style={{ display: 'flex', gap: 4 }}>
          <button type="button" aria-expanded={open} onClick={onToggle}>
            {open ? 'Close' : 'Open'}
          </button>
          {tag.position !== 1 && (
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (window.confirm(`Delete ${tag.name} and its selectors?`))
                  void run(async () => {
                    await gql(DeleteTagDocument, { id: tag.id });
                    return `${tag.name} deleted.`;
                  });
              }}
            >
              Delete
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={5}>
            <h2>Selectors of {tag.name}</h2>
            <ul>
              {tag.selectors.map((s) => (
                <li key={s.id}>
                  <strong>{s.name}</strong>{' '}
                  <span className="muted">
                    ({s.memberCount} members{s.isDefault ? ', default' : ''})
                  </span>
                  : <code>{s.seeds.map(formatSeed).join(', ')}</code>{' '}
                  {!s.isDefault && (
                    <button
                      type="button"
                      className="link"
                      onClick={() =>
                        void run(async () => {
                          await gql(DeleteSelectorDocument, { tagId: tag.id, id: s.id });
                          return `Selector ${s.name} deleted.`;
                        })
                      }
                    >
                      Delete
                    </button>
                  )}
                </li>
              ))}
            </ul>
            <form
              className="inline-form"
              aria-label={`Add selector to ${tag.name}`}
              onSubmit={(e) => {
                e.preventDefault();
                void run(async () => {
                  await gql(CreateSelectorDocument, { tagId: tag.id, input: { name: selName, seeds: parseSeeds(seeds) } });
                  setSelName('');
                  setSeeds('');
                  return `Selector ${selName} added to ${tag.name}.`;
                });
              }}
            >
              <div className="field">
                <label htmlFor={`sel-name-${tag.id}`}>Selector name</label>
                <input id={`sel-name-${tag.id}`} value={selName} onChange={(e) => setSelName(e.target.value)} required />
              </div>
              <div className="field" style={{ flex: 1 }}>
                <label htmlFor={`sel-seeds-${tag.id}`}>Seeds, one a line (objectid:…, kind:…, rule:…)</label>
                <textarea id={`sel-seeds-${tag.id}`} rows={2} value={seeds} onChange={(e) => setSeeds(e.target.value)} required />
              </div>
              <button type="submit">Add selector</button>
            </form>
            <h2>Members</h2>
            {members.isPending && <Loading label="Loading members" />}
            <table className="data" aria-label={`Members of ${tag.name}`}>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Certification</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {members.data?.assetGroupTag.members.members.map((m) => (
                  <tr key={m.id}>
                    <td>{m.name}</td>
                    <td>{m.primaryKind}</td>
                    <td>
                      {m.certified.toLowerCase()}
                      {m.certifiedBy ? ` by ${m.certifiedBy}` : ''}
                    </td>
                    <td>
                      {tag.requireCertify && (
                        <>
                          <button
                            type="button"
                            onClick={() =>
                              void run(async () => {
                                await gql(CertifyMembersDocument, {
                                  memberIds: [m.id],
                                  action: 'CERTIFY',
                                  note: 'Certified in the web app',
                                });
                                await members.refetch();
                                return `${m.name} certified.`;
                              })
                            }
                          >
                            Certify
                          </button>{' '}
                          <button
                            type="button"
                            onClick={() =>
                              void run(async () => {
                                await gql(CertifyMembersDocument, { memberIds: [m.id], action: 'REVOKE', note: 'Revoked in the web app' });
                                await members.refetch();
                                return `${m.name} revoked.`;
                              })
                            }
                          >
                            Revoke
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {members.data && members.data.assetGroupTag.members.totalCount > 100 && (
              <p className="muted">The first 100 of {members.data.assetGroupTag.members.totalCount.toLocaleString()} members.</p>
            )}
          </td>
        </tr>
      )}
    </>
  );
}

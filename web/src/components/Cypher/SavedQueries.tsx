import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import {
  DeleteSavedQueryDocument,
  ExportSavedQueriesDocument,
  ExportSavedQueryDocument,
  ImportSavedQueriesDocument,
  SavedQueriesDocument,
  ShareSavedQueryDocument,
} from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { downloadBase64, gqlWithFile } from '../../core/api/multipart';
import { can, useSession } from '../../core/session/session';
import { ErrorMessage } from '../common/ErrorMessage';
import { ShareQueryDialog } from './ShareQueryDialog';
import { Loading } from '../common/Loading';

export const SAVED_KEY = ['saved-queries'] as const;

/**
 * Saved queries: run one, share it (public, private, or with chosen users when the viewer may list them), export
 * it, delete it; import and export files of them.
 */
export function SavedQueries({ userId, onRun }: { userId: string; onRun(query: string): void }) {
  const client = useQueryClient();
  const canListUsers = can(useSession().data, 'auth/ManageUsers');
  const [sharing, setSharing] = useState<{ id: number; name: string } | null>(null);
  const [filter, setFilter] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const list = useQuery({ queryKey: SAVED_KEY, queryFn: () => gql(SavedQueriesDocument) });
  const refresh = () => client.invalidateQueries({ queryKey: SAVED_KEY });
  const act = useMutation({
    mutationFn: async (fn: () => Promise<string | void>) => {
      const done = await fn();
      if (done) setMessage(done);
    },
    onSettled: refresh,
  });
  const queries = (list.data?.savedQueries.queries ?? []).filter(
    (q) => !filter || q.name.toLowerCase().includes(filter.toLowerCase()) || q.query.toLowerCase().includes(filter.toLowerCase()),
  );
  return (
    <div>
      <div className="cypher-actions">
        <button type="button" onClick={() => file.current?.click()}>
          Import
        </button>
        <input
          ref={file}
          type="file"
          aria-label="Import queries"
          accept=".json,.yaml,.yml,.zip,application/json,application/zip"
          hidden
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f)
              act.mutate(async () => {
                const data = await gqlWithFile(ImportSavedQueriesDocument, 'file', f);
                return `${data.importSavedQueries} quer${data.importSavedQueries === 1 ? 'y' : 'ies'} imported from ${f.name}.`;
              });
          }}
        />
        <button
          type="button"
          onClick={() =>
            act.mutate(async () => {
              const { exportSavedQueries: x } = await gql(ExportSavedQueriesDocument);
              downloadBase64(x.fileName, x.contentType, x.base64);
            })
          }
        >
          Export all
        </button>
      </div>
      <input
        className="filter-input"
        aria-label="Filter saved queries"
        placeholder="Filter saved queries"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {list.isPending && <Loading label="Loading saved queries" />}
      <ErrorMessage error={list.error ?? act.error} />
      {message && <p role="status">{message}</p>}
      {list.data && !queries.length && <p className="muted">No saved queries{filter ? ' match' : ' yet: run a query and save it'}.</p>}
      <ul className="query-list" aria-label="Saved queries">
        {queries.map((q) => (
          <li key={q.id} className="saved-row">
            <button type="button" className="query" title={q.description || q.query} onClick={() => onRun(q.query)}>
              {q.name}
              {q.scope !== 'OWNED' && <span className="muted"> · {q.scope === 'PUBLIC' ? 'public' : 'shared'}</span>}
            </button>
            {q.userId === userId && (
              <>
                <MenuTrigger>
                  <Button aria-label={`Share ${q.name}`}>⇧</Button>
                  <Popover className="popover" placement="bottom end">
                    <Menu
                      className="menu"
                      aria-label={`Sharing of ${q.name}`}
                      onAction={(key) =>
                        key === 'users'
                          ? setSharing(q)
                          : act.mutate(async () => {
                              const makePublic = key === 'public';
                              await gql(ShareSavedQueryDocument, { id: q.id, public: makePublic });
                              return `${q.name} is ${makePublic ? 'public' : 'private'} now.`;
                            })
                      }
                    >
                      <MenuItem id="public">Make public</MenuItem>
                      <MenuItem id="private">Make private</MenuItem>
                      {canListUsers && <MenuItem id="users">Share with users…</MenuItem>}
                    </Menu>
                  </Popover>
                </MenuTrigger>
                <button
                  type="button"
                  aria-label={`Export ${q.name}`}
                  onClick={() =>
                    act.mutate(async () => {
                      const { exportSavedQuery: x } = await gql(ExportSavedQueryDocument, { id: q.id });
                      downloadBase64(x.fileName, x.contentType, x.base64);
                    })
                  }
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete ${q.name}`}
                  onClick={() =>
                    act.mutate(async () => {
                      await gql(DeleteSavedQueryDocument, { id: q.id });
                      return `${q.name} deleted.`;
                    })
                  }
                >
                  ✕
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {sharing && (
        <ShareQueryDialog
          query={sharing}
          selfId={userId}
          onClose={(done) => {
            setSharing(null);
            if (done) setMessage(done);
            void refresh();
          }}
        />
      )}
    </div>
  );
}

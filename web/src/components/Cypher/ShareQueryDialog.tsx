import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import {
  SavedQuerySharesDocument,
  ShareSavedQueryDocument,
  ShareTargetsDocument,
  UnshareSavedQueryDocument,
} from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { sharingChanges } from '../../core/cypher/sharing';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';

/**
 * Shares one saved query with chosen users (BloodHound's share dialog): every other enabled user with a box,
 * ticked for those who have it now; Save shares with the newly ticked and stops sharing with the unticked.
 */
export function ShareQueryDialog({
  query,
  selfId,
  onClose,
}: {
  query: { id: number; name: string };
  selfId: string;
  onClose(message?: string): void;
}) {
  const users = useQuery({ queryKey: ['share-targets'], queryFn: () => gql(ShareTargetsDocument), staleTime: 60_000 });
  const sharing = useQuery({
    queryKey: ['saved-query-sharing', query.id],
    queryFn: () => gql(SavedQuerySharesDocument, { id: query.id }),
    gcTime: 0,
  });
  const current = sharing.data?.savedQuery.sharedToUserIds ?? [];
  const [ticked, setTicked] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (sharing.data && ticked === null) setTicked(sharing.data.savedQuery.sharedToUserIds ?? []);
  }, [sharing.data, ticked]);
  const others = (users.data?.users ?? []).filter((u) => u.id !== selfId && !u.isDisabled);

  const save = async () => {
    const { share, unshare } = sharingChanges(current, ticked ?? []);
    setSaving(true);
    try {
      if (share.length) await gql(ShareSavedQueryDocument, { id: query.id, userIds: share });
      if (unshare.length) await gql(UnshareSavedQueryDocument, { id: query.id, userIds: unshare });
      const count = (ticked ?? []).length;
      onClose(count ? `${query.name} is shared with ${count} user${count === 1 ? '' : 's'}.` : `${query.name} is shared with nobody.`);
    } catch (err) {
      setError(err);
      setSaving(false);
    }
  };

  return (
    <ModalOverlay className="modal-overlay" isDismissable isOpen onOpenChange={(open) => !open && onClose()}>
      <Modal className="modal">
        <Dialog>
          <Heading slot="title">Share {query.name}</Heading>
          {(users.isPending || sharing.isPending) && <Loading label="Loading users" />}
          <ErrorMessage error={users.error ?? sharing.error ?? error} />
          {users.data && ticked !== null && (
            <fieldset className="share-users">
              <legend>Users who can run it</legend>
              {others.length ? (
                others.map((u) => (
                  <label key={u.id}>
                    <input
                      type="checkbox"
                      checked={ticked.includes(u.id)}
                      onChange={(e) => setTicked(e.target.checked ? [...ticked, u.id] : ticked.filter((id) => id !== u.id))}
                    />{' '}
                    {u.principalName}
                  </label>
                ))
              ) : (
                <p className="muted">There is no other user to share with.</p>
              )}
            </fieldset>
          )}
          <div className="dialog-actions">
            <Button onPress={() => onClose()}>Cancel</Button>
            <Button className="primary" onPress={() => void save()} isDisabled={ticked === null || saving}>
              Save sharing
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

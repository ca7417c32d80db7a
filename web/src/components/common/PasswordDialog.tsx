import { useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';

/** A button that asks a new password in a dialog (masked, 12 characters or more) and hands it on. */
export function PasswordDialog({ label, title, onSet }: { label: string; title: string; onSet(secret: string): void }) {
  const [secret, setSecret] = useState('');
  return (
    <DialogTrigger onOpenChange={() => setSecret('')}>
      <Button>{label}</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog>
            {({ close }) => (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  onSet(secret);
                  close();
                }}
              >
                <Heading slot="title">{title}</Heading>
                <TextField className="field" type="password" value={secret} onChange={setSecret} minLength={12} isRequired autoFocus>
                  <Label>New password</Label>
                  <Input autoComplete="new-password" />
                </TextField>
                <p className="muted">12 characters or more. The user must change it at their next login.</p>
                <div className="dialog-actions">
                  <Button onPress={close}>Cancel</Button>
                  <Button type="submit" className="primary" isDisabled={secret.length < 12}>
                    Set password
                  </Button>
                </div>
              </form>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

import { useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';
import { ErrorMessage } from '../common/ErrorMessage';

/** Asks a name (and a description) for the query in the editor, then saves it. */
export function SaveQueryDialog({ disabled, onSave }: { disabled: boolean; onSave(name: string, description: string): Promise<void> }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(null);
  return (
    <DialogTrigger onOpenChange={() => setError(null)}>
      <Button isDisabled={disabled}>Save</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog>
            {({ close }) => (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  onSave(name, description).then(() => {
                    setName('');
                    setDescription('');
                    close();
                  }, setError);
                }}
              >
                <Heading slot="title">Save query</Heading>
                <TextField className="field" value={name} onChange={setName} isRequired autoFocus>
                  <Label>Name</Label>
                  <Input />
                </TextField>
                <TextField className="field" value={description} onChange={setDescription}>
                  <Label>Description</Label>
                  <Input />
                </TextField>
                <ErrorMessage error={error} />
                <div className="dialog-actions">
                  <Button onPress={close}>Cancel</Button>
                  <Button type="submit" className="primary">
                    Save query
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

import { useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { EDGE_CATEGORIES } from '../../core/pathfinding/edgeCategories';

/**
 * BloodHound's pathfinding edge filter: a checkbox per edge kind, grouped by platform and subcategory (a
 * subcategory's box checks or clears all of its kinds). Applying it redraws the paths.
 */
export function EdgeFilterDialog({ excluded, onApply }: { excluded: readonly string[]; onApply(excluded: string[]): void }) {
  const [draft, setDraft] = useState<Set<string>>(new Set(excluded));
  const toggle = (kinds: readonly string[], on: boolean) =>
    setDraft((d) => {
      const next = new Set(d);
      for (const k of kinds) {
        if (on) next.delete(k);
        else next.add(k);
      }
      return next;
    });
  return (
    <DialogTrigger onOpenChange={(open) => open && setDraft(new Set(excluded))}>
      <Button>Edge filter{excluded.length ? ` (${excluded.length} off)` : ''}</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog aria-label="Path edge filtering">
            {({ close }) => (
              <div className="edge-filter">
                <Heading slot="title">Path edge filtering</Heading>
                {EDGE_CATEGORIES.map((c) => (
                  <fieldset key={c.name}>
                    <legend>{c.name}</legend>
                    {c.subcategories.map((s) => {
                      const on = s.kinds.filter((k) => !draft.has(k)).length;
                      return (
                        <div className="sub" key={s.name}>
                          <label className="sub-label">
                            <input
                              type="checkbox"
                              checked={on === s.kinds.length}
                              ref={(el) => {
                                if (el) el.indeterminate = on > 0 && on < s.kinds.length;
                              }}
                              onChange={(e) => toggle(s.kinds, e.target.checked)}
                            />
                            {s.name}
                          </label>
                          <div className="kinds">
                            {s.kinds.map((k) => (
                              <label key={k}>
                                <input type="checkbox" checked={!draft.has(k)} onChange={(e) => toggle([k], e.target.checked)} />
                                {k}
                              </label>
                            ))}
                          </div>
                        </div>
                      );
                    })}
                  </fieldset>
                ))}
                <div className="dialog-actions">
                  <Button onPress={() => setDraft(new Set())}>Check all</Button>
                  <Button onPress={close}>Cancel</Button>
                  <Button
                    className="primary"
                    onPress={() => {
                      onApply([...draft]);
                      close();
                    }}
                  >
                    Apply
                  </Button>
                </div>
              </div>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

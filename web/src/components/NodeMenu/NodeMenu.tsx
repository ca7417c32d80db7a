import { useRef } from 'react';
import { Button, Menu, MenuItem, MenuSection, MenuTrigger, Popover, Separator, Header } from 'react-aria-components';
import type { MenuNode, NodeActions } from './useNodeActions';

/** The node menu's items: pathfinding ends, the Owned label, and every other zone and label. */
function NodeMenuItems({ node, actions, onDone }: { node: MenuNode; actions: NodeActions; onDone?(): void }) {
  const inTags = new Set(actions.taggedIn(node).map((t) => t.id));
  const others = actions.tags.filter((t) => t !== actions.ownedTag);
  const owned = actions.isOwned(node);
  return (
    <Menu className="menu" aria-label={`Actions for ${node.name}`} onAction={() => onDone?.()}>
      <MenuItem onAction={() => actions.setStart(node)}>Set as starting node</MenuItem>
      <MenuItem onAction={() => actions.setEnd(node)}>Set as ending node</MenuItem>
      <Separator />
      {owned && actions.ownedTag ? (
        <MenuItem onAction={() => void actions.remove(actions.ownedTag!, node)}>Remove from Owned</MenuItem>
      ) : (
        <MenuItem onAction={() => void actions.add('owned', node)}>Add to Owned</MenuItem>
      )}
      <Separator />
      <MenuSection>
        <Header className="menu-header">Zones and labels</Header>
        {others.map((t) =>
          inTags.has(t.id) ? (
            <MenuItem key={`rm-${t.id}`} onAction={() => void actions.remove(t, node)}>{`Remove from ${t.name}`}</MenuItem>
          ) : (
            <MenuItem key={`add-${t.id}`} onAction={() => void actions.add(t, node)}>{`Add to ${t.name}`}</MenuItem>
          ),
        )}
      </MenuSection>
    </Menu>
  );
}

/** The menu at a point of the canvas (right click or long press on a node). */
export function NodeMenuAt({
  node,
  at,
  actions,
  onClose,
}: {
  node: MenuNode;
  at: { x: number; y: number };
  actions: NodeActions;
  onClose(): void;
}) {
  const anchor = useRef<HTMLDivElement>(null);
  return (
    <>
      <div ref={anchor} className="menu-anchor" style={{ position: 'fixed', left: at.x, top: at.y, width: 1, height: 1 }} />
      <Popover className="popover" triggerRef={anchor} isOpen onOpenChange={(open) => !open && onClose()} placement="bottom start">
        <NodeMenuItems node={node} actions={actions} onDone={onClose} />
      </Popover>
    </>
  );
}

/** The same menu from a button (the Entity panel), for keyboards and screen readers. */
export function NodeActionsButton({ node, actions }: { node: MenuNode; actions: NodeActions }) {
  return (
    <MenuTrigger>
      <Button aria-label="Node actions">⋯</Button>
      <Popover className="popover" placement="bottom end">
        <NodeMenuItems node={node} actions={actions} />
      </Popover>
    </MenuTrigger>
  );
}

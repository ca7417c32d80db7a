import { forwardRef } from 'react';
import type { CustomKinds } from '../../core/graph/style';
import { NodeCombobox, type NodeChoice } from '../forms/NodeCombobox';

/** The Search tab: choose a node, it is drawn and its entity panel opens. */
export const SearchTab = forwardRef<HTMLInputElement, { custom: CustomKinds; current?: NodeChoice; onChoose(n: NodeChoice): void }>(
  function SearchTab({ custom, current, onChoose }, ref) {
    return (
      <div>
        <NodeCombobox ref={ref} label="Search nodes" custom={custom} value={current} onChoose={onChoose} />
        <p className="muted">
          Type part of a name or an object id and choose a node. Press <kbd>/</kbd> to come back here from anywhere in Explore.
        </p>
      </div>
    );
  },
);

import { useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { NodeByObjectIdDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import type { CustomKinds } from '../../core/graph/style';
import { NodeCombobox, type NodeChoice } from '../forms/NodeCombobox';
import { EdgeFilterDialog } from './EdgeFilterDialog';

/** The name of a node known by object id (for a start or end that came in a link). */
function useNodeChoice(objectId?: string): NodeChoice | undefined {
  const { data } = useQuery({
    queryKey: ['node-name', objectId],
    queryFn: () => gql(NodeByObjectIdDocument, { objectId: objectId! }),
    enabled: !!objectId,
    staleTime: 300_000,
  });
  if (!objectId) return undefined;
  return { objectId, name: data?.node?.name ?? objectId };
}

interface Props {
  start?: string;
  end?: string;
  excluded: string[];
  summary?: string;
  custom: CustomKinds;
  onChange(patch: { start?: string; end?: string; exclude?: string[] }): void;
}

/** The Pathfinding tab: start and end by name, swap, the edge filter; the shortest paths are drawn when both are set. */
export function PathfindingTab({ start, end, excluded, summary, custom, onChange }: Props) {
  const startNode = useNodeChoice(start);
  const endNode = useNodeChoice(end);
  return (
    <div>
      <div className="path-ends">
        <NodeCombobox label="Start node" custom={custom} value={startNode} onChoose={(n) => onChange({ start: n.objectId })} />
        <Button
          className="swap"
          aria-label="Swap start and end"
          onPress={() => onChange({ start: end, end: start })}
          isDisabled={!start && !end}
        >
          ⇅
        </Button>
        <NodeCombobox label="End node" custom={custom} value={endNode} onChoose={(n) => onChange({ end: n.objectId })} />
      </div>
      <div className="cypher-actions">
        <EdgeFilterDialog excluded={excluded} onApply={(exclude) => onChange({ exclude })} />
      </div>
      {summary ? (
        <p role="status">{summary}</p>
      ) : (
        <p className="muted">Choose a start and an end node: every shortest path between them is drawn.</p>
      )}
    </div>
  );
}

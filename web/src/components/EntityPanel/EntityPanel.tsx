import { Fragment } from 'react';
import { useQuery } from '@tanstack/react-query';
import { EntityPanelDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { listTitle } from '../../core/explore/entityLists';
import { iconImage } from '../../core/graph/iconCache';
import { nodeFromApi } from '../../core/graph/model';
import { formatProperty, orderedProperties } from '../../core/graph/properties';
import { displayKinds, isOwned, isTierZero, kindIcon, type CustomKinds } from '../../core/graph/style';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';
import { Section } from '../common/Section';
import { NodeActionsButton } from '../NodeMenu/NodeMenu';
import type { NodeActions } from '../NodeMenu/useNodeActions';

interface Props {
  objectId: string;
  custom: CustomKinds;
  owned: ReadonlySet<string>;
  /** The list drawn on the canvas now, if one of this node's. */
  openList?: string;
  onOpenList(list: string): void;
  actions: NodeActions;
}

/**
 * The Entity panel: the node's name and markers, its properties (Object Information), then every relationship
 * list BloodHound shows for its kind with its count; opening a list draws it.
 */
export function EntityPanel({ objectId, custom, owned, openList, onOpenList, actions }: Props) {
  const { data, error, isPending } = useQuery({
    queryKey: ['entity', objectId],
    queryFn: ({ signal }) => gql(EntityPanelDocument, { objectId }, signal),
    staleTime: 60_000,
  });
  const entity = data?.entity;
  const node = entity ? nodeFromApi(entity.node) : undefined;
  const icon = node ? kindIcon(node, custom) : undefined;
  const counts = new Map(entity?.counts.map((c) => [c.list, c.count]) ?? []);
  return (
    <aside className="panel" aria-label="Entity">
      {isPending && <Loading label="Loading the node" />}
      <ErrorMessage error={error} />
      {data && !entity && <div className="empty">No node has the object id {objectId}.</div>}
      {node && icon && entity && (
        <>
          <header>
            <img src={iconImage(icon.icon)} alt="" style={{ background: icon.color }} />
            <div style={{ flex: 1, minWidth: 0 }}>
              <h2>{withBreaks(node.name)}</h2>
              <div className="badges">
                <span className="badge">{entity.kind}</span>
                {isTierZero(node) && <span className="badge tier0">Tier Zero</span>}
                {isOwned(node, owned) && <span className="badge owned">Owned</span>}
              </div>
            </div>
            <NodeActionsButton node={{ objectId: node.objectId, name: node.name }} actions={actions} />
          </header>
          <Section title="Object Information" defaultOpen>
            <dl className="props">
              <dt>Kinds</dt>
              <dd>{displayKinds(node.kinds).join(', ')}</dd>
              {orderedProperties(node.properties).map(([k, v]) => (
                <Prop key={k} name={k} value={formatProperty(k, v)} />
              ))}
            </dl>
          </Section>
          <Section title="Relationships" count={entity.lists.length} defaultOpen>
            <ul className="lists" aria-label="Relationship lists">
              {entity.lists.map((list) => (
                <li key={list}>
                  <button type="button" aria-pressed={openList === list} onClick={() => onOpenList(list)} disabled={!counts.get(list)}>
                    <span>{listTitle(list)}</span>
                    <span className="count">{(counts.get(list) ?? 0).toLocaleString()}</span>
                  </button>
                </li>
              ))}
            </ul>
          </Section>
        </>
      )}
    </aside>
  );
}

function Prop({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** A name that may break after its `@` and dots before anywhere else (`DOMAIN ADMINS@` over `TESTLAB.LOCAL`). */
function withBreaks(name: string) {
  return name.split(/(?<=[@.])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

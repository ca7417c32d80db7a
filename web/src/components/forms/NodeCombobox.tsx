import { useQuery } from '@tanstack/react-query';
import { forwardRef, useEffect, useRef, useState } from 'react';
import { ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import { SearchNodesDocument, type SearchNodesQuery } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { iconImage } from '../../core/graph/iconCache';
import { kindIcon, type CustomKinds } from '../../core/graph/style';

export interface NodeChoice {
  objectId: string;
  name: string;
  kind?: string;
}

interface Props {
  label: string;
  value?: NodeChoice;
  custom: CustomKinds;
  placeholder?: string;
  onChoose(node: NodeChoice): void;
}

/** Waits `ms` after the last change of `value` before answering it (one search per pause in typing). */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/**
 * A node picker: type a name or object id, the server's search suggests nodes (options showing the node's icon,
 * name and kind), choosing one hands it on. Search, Start node and End node are each one of these.
 */
export const NodeCombobox = forwardRef<HTMLInputElement, Props>(function NodeCombobox(
  { label, value, custom, placeholder, onChoose },
  ref,
) {
  const own = useRef<HTMLInputElement | null>(null);
  const [input, setInput] = useState(value?.name ?? '');
  useEffect(() => setInput(value?.name ?? ''), [value?.objectId, value?.name]);
  const term = useDebounced(input.trim(), 150);
  const enabled = term.length >= 2 && term !== value?.name;
  const { data, isFetching } = useQuery({
    queryKey: ['search', term],
    queryFn: ({ signal }) => gql(SearchNodesDocument, { query: term, limit: 10 }, signal),
    enabled,
    staleTime: 30_000,
  });
  const items = enabled ? (data?.search.nodes ?? []) : [];
  return (
    <ComboBox<SearchNodesQuery['search']['nodes'][number]>
      className="combobox field"
      inputValue={input}
      onInputChange={setInput}
      items={items}
      menuTrigger="input"
      // Suggestions arrive after the typing: the list opens at once and fills in when the answer comes.
      allowsEmptyCollection
      selectedKey={null}
      onSelectionChange={(key) => {
        const node = items.find((n) => n.objectId === key);
        if (node) {
          setInput(node.name);
          onChoose({ objectId: node.objectId, name: node.name, kind: node.label });
          // A choice is made: leave the field, so the list does not open again on the chosen name.
          requestAnimationFrame(() => own.current?.blur());
        }
      }}
    >
      <Label>{label}</Label>
      <div className="input-row">
        <Input
          ref={(el) => {
            own.current = el;
            if (typeof ref === 'function') ref(el);
            else if (ref) ref.current = el;
          }}
          placeholder={placeholder ?? 'Name or object id'}
        />
        {isFetching && <span className="spinner" aria-hidden />}
      </div>
      <Popover className="popover" placement="bottom start">
        <ListBox<SearchNodesQuery['search']['nodes'][number]>
          className="listbox"
          renderEmptyState={() => (
            <div className="empty">
              {isFetching || term !== input.trim() ? 'Searching…' : term.length < 2 ? 'Type two characters or more.' : 'No node matches.'}
            </div>
          )}
        >
          {(n) => {
            const icon = kindIcon({ kind: n.label, kinds: n.kinds }, custom);
            return (
              <ListBoxItem id={n.objectId} textValue={n.name}>
                <img src={iconImage(icon.icon)} alt="" style={{ background: icon.color }} />
                <Text slot="label">{n.name}</Text>
                <Text slot="description" className="option-kind">
                  {n.label}
                </Text>
              </ListBoxItem>
            );
          }}
        </ListBox>
      </Popover>
    </ComboBox>
  );
});

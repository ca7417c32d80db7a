import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CustomNodeKindsDocument, TagsDocument, TagMembersDocument } from '../../generated/graphql';
import { gql } from '../api/client';
import type { CustomKinds } from '../graph/style';
import { fetchSource } from './fetch';
import { drawSource, exploreSearch, parseExplore, type DrawSource, type ExploreView } from './url';

/** The Explore view the URL names, and a way to change it (a new history entry unless `replace`). */
export function useExploreView(): [ExploreView, (patch: Partial<ExploreView>, opts?: { replace?: boolean }) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const view = useMemo(() => parseExplore(new URLSearchParams(location.search)), [location.search]);
  const update = useCallback(
    (patch: Partial<ExploreView>, opts: { replace?: boolean } = {}) => {
      const next = { ...parseExplore(new URLSearchParams(window.location.search)), ...patch };
      navigate({ pathname: '/explore', search: exploreSearch(next) }, { replace: opts.replace });
    },
    [navigate],
  );
  return [view, update];
}

export const sourceKey = (s: DrawSource) => ['draw', s] as const;

/** The graph the canvas draws for the current view (the previous one stays up while the next loads). */
export function useDrawn(view: ExploreView) {
  const source = useMemo(() => drawSource(view), [view]);
  const query = useQuery({
    queryKey: sourceKey(source),
    queryFn: ({ signal }) => fetchSource(source, signal),
    placeholderData: (prev) => (source.type === 'none' ? undefined : prev),
    staleTime: 60_000,
  });
  return { source, ...query };
}

/** Custom node kinds' icons and colours, by kind. */
export function useCustomKinds(): CustomKinds {
  const { data } = useQuery({ queryKey: ['custom-kinds'], queryFn: () => gql(CustomNodeKindsDocument), staleTime: 300_000 });
  return useMemo(
    () => new Map((data?.customNodeKinds ?? []).map((k) => [k.kindName, { icon: k.config.icon.name, color: k.config.icon.color }])),
    [data],
  );
}

export const TAGS_KEY = ['tags'] as const;

/** Zones and labels with their selectors. */
export function useTags() {
  return useQuery({ queryKey: TAGS_KEY, queryFn: fetchTags, staleTime: 60_000 });
}

export const fetchTags = () => gql(TagsDocument);

/** BloodHound's built-in label for what the analyst owns. */
export const OWNED_LABEL = 'Owned';

/** Object ids of the Owned label's members (the owned marker on the canvas). */
export function useOwnedObjectIds(): ReadonlySet<string> {
  const tags = useTags();
  const owned = tags.data?.assetGroupTags.find((t) => t.type === 'LABEL' && t.name.toLowerCase() === OWNED_LABEL.toLowerCase());
  const { data } = useQuery({
    queryKey: [...TAGS_KEY, 'members', owned?.id],
    queryFn: () => gql(TagMembersDocument, { id: owned!.id, limit: 1000 }),
    enabled: owned !== undefined,
    staleTime: 60_000,
  });
  return useMemo(() => new Set((data?.assetGroupTag.members.members ?? []).map((m) => m.objectId)), [data]);
}

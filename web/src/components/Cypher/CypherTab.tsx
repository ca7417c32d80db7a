import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { CreateSavedQueryDocument, PrebuiltQueriesDocument } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { errorPosition, offsetOf } from '../../core/cypher/errorPosition';
import { Section } from '../common/Section';
import { Loading } from '../common/Loading';
import { SAVED_KEY, SavedQueries } from './SavedQueries';
import { SaveQueryDialog } from './SaveQueryDialog';

const CypherEditor = lazy(() => import('./CypherEditor'));

interface Props {
  /** The query the URL names. */
  query: string;
  userId: string;
  /** The error of the last run, shown at the query. */
  error?: unknown;
  running: boolean;
  summary?: string;
  onRun(query: string): void;
}

/** The Cypher tab: the editor and Run, the pre-built queries by category, and saved queries. */
export function CypherTab({ query, userId, error, running, summary, onRun }: Props) {
  const client = useQueryClient();
  const [text, setText] = useState(query);
  useEffect(() => setText(query), [query]);
  const prebuilt = useQuery({ queryKey: ['prebuilt-queries'], queryFn: () => gql(PrebuiltQueriesDocument), staleTime: Infinity });
  const message = error instanceof Error ? error.message : error ? String(error) : '';
  const pos = message ? errorPosition(message) : undefined;
  const run = () => text.trim() && onRun(text);
  return (
    <div>
      <Suspense fallback={<Loading label="Loading the editor" />}>
        <CypherEditor value={text} onChange={setText} onRun={run} errorAt={pos ? offsetOf(text, pos) : undefined} />
      </Suspense>
      {message && (
        <div role="alert" className="error">
          {message}
        </div>
      )}
      <div className="cypher-actions">
        <Button className="primary" onPress={run} isDisabled={!text.trim() || running}>
          Run
        </Button>
        <SaveQueryDialog
          disabled={!text.trim()}
          onSave={async (name, description) => {
            await gql(CreateSavedQueryDocument, { input: { name, description, query: text } });
            await client.invalidateQueries({ queryKey: SAVED_KEY });
          }}
        />
        <span className="muted">Ctrl+Enter runs</span>
      </div>
      {summary && <p role="status">{summary}</p>}
      <Section title="Saved queries" defaultOpen>
        <SavedQueries userId={userId} onRun={(q) => (setText(q), onRun(q))} />
      </Section>
      <Section title="Pre-built queries" defaultOpen>
        {prebuilt.isPending && <Loading label="Loading pre-built queries" />}
        <ul className="query-list" aria-label="Pre-built queries">
          {prebuilt.data?.prebuiltQueryCategories.flatMap((c) =>
            c.queries.map((q, i) => (
              <li key={q.id}>
                {i === 0 && (
                  <span className="category">
                    {c.platform} · {c.name}
                  </span>
                )}
                <button type="button" className="query" title={q.description} onClick={() => (setText(q.query), onRun(q.query))}>
                  {q.name}
                </button>
              </li>
            )),
          )}
        </ul>
      </Section>
    </div>
  );
}

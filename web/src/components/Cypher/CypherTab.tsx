import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { CreateSavedQueryDocument, PrebuiltQueriesDocument, type PrebuiltQueriesQuery } from '../../generated/graphql';
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
  /** The answer's table, when it has no graph (scalars only). */
  table?: { columns: string[]; rows: unknown[][] };
  onRun(query: string): void;
}

/** The Cypher tab: the editor and Run, the pre-built queries by category, and saved queries. */
export function CypherTab({ query, userId, error, running, summary, table, onRun }: Props) {
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
      {table && table.rows.length > 0 && (
        <div style={{ overflow: 'auto', maxHeight: 260, marginBottom: 10 }}>
          <table className="data" aria-label="Query results">
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.slice(0, 500).map((row, i) => (
                <tr key={i}>
                  {row.map((v, j) => (
                    <td key={j}>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Section title="Saved queries" defaultOpen>
        <SavedQueries userId={userId} onRun={(q) => (setText(q), onRun(q))} />
      </Section>
      <Section title="Pre-built queries" defaultOpen>
        <PrebuiltList
          loading={prebuilt.isPending}
          categories={prebuilt.data?.prebuiltQueryCategories ?? []}
          onRun={(q) => (setText(q), onRun(q))}
        />
      </Section>
    </div>
  );
}

type Category = PrebuiltQueriesQuery['prebuiltQueryCategories'][number];

/**
 * The pre-built queries of one category (the first one until another is chosen), or every query whose name holds
 * the filter's words; each item's button loads its query and runs it.
 */
function PrebuiltList({ loading, categories, onRun }: { loading: boolean; categories: Category[]; onRun(query: string): void }) {
  const [chosen, setChosen] = useState(0);
  const [filter, setFilter] = useState('');
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = categories
    .map((c, i) => ({
      ...c,
      queries: c.queries.filter((q) =>
        words.length ? words.every((w) => `${q.name} ${c.name}`.toLowerCase().includes(w)) : chosen < 0 || i === chosen,
      ),
    }))
    .filter((c) => c.queries.length);
  return (
    <div>
      <div className="field-row" style={{ marginBottom: 8 }}>
        <select
          aria-label="Pre-built query category"
          value={chosen}
          onChange={(e) => setChosen(Number(e.target.value))}
          style={{ flex: 1 }}
        >
          {categories.map((c, i) => (
            <option key={`${c.platform}-${c.name}`} value={i}>
              {c.platform} · {c.name} ({c.queries.length})
            </option>
          ))}
          <option value={-1}>All categories</option>
        </select>
      </div>
      <input
        className="filter-input"
        aria-label="Filter pre-built queries"
        placeholder="Filter pre-built queries"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {loading && <Loading label="Loading pre-built queries" />}
      <ul className="query-list" aria-label="Pre-built queries">
        {shown.flatMap((c) =>
          c.queries.map((q, i) => (
            <li key={q.id}>
              {i === 0 && (
                <span className="category">
                  {c.platform} · {c.name}
                </span>
              )}
              <button type="button" className="query" title={q.description} onClick={() => onRun(q.query)}>
                {q.name}
              </button>
            </li>
          )),
        )}
      </ul>
      {!loading && !shown.length && <p className="muted">No pre-built query matches.</p>}
    </div>
  );
}

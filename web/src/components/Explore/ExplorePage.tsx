import { useEffect, useMemo, useRef, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useCustomKinds, useDrawn, useExploreView, useOwnedObjectIds } from '../../core/explore/hooks';
import { useToast } from '../../core/explore/toast';
import { iconImage } from '../../core/graph/iconCache';
import { EMPTY_GRAPH, exportJson } from '../../core/graph/model';
import type { StyleContext } from '../../core/graph/sigmaGraph';
import { downloadBlob } from '../../core/api/multipart';
import { LAYOUTS, type LayoutId } from '../../core/layouts';
import { useSession } from '../../core/session/session';
import { canvasColors, useTheme } from '../../core/theme/theme';
import { MARKERS } from '../../core/graph/style';
import { cypherGraphWithProperties } from '../../core/cypher/run';
import { CypherTab } from '../Cypher/CypherTab';
import { EdgePanel } from '../EdgePanel/EdgePanel';
import { EntityPanel } from '../EntityPanel/EntityPanel';
import { GraphCanvas, type GraphCanvasHandle } from '../GraphCanvas/GraphCanvas';
import { NodeMenuAt } from '../NodeMenu/NodeMenu';
import { useNodeActions, type MenuNode } from '../NodeMenu/useNodeActions';
import { PathfindingTab } from '../Pathfinding/PathfindingTab';
import { ResultTable } from '../ResultTable/ResultTable';
import { SearchTab } from '../Search/SearchTab';

/**
 * Explore: the tabs (Search, Pathfinding, Cypher) on the left, the graph canvas (or its table) in the middle, the
 * Entity or Edge panel on the right. Everything drawn or opened is in the URL.
 */
export default function ExplorePage() {
  const [view, update] = useExploreView();
  const session = useSession().data!;
  const theme = useTheme((s) => s.theme);
  const custom = useCustomKinds();
  const owned = useOwnedObjectIds();
  const drawn = useDrawn(view);
  const graph = drawn.data?.graph ?? EMPTY_GRAPH;
  const [layout, setLayout] = useState<LayoutId>('force');
  const [mode, setMode] = useState<'graph' | 'table'>('graph');
  const [menu, setMenu] = useState<{ node: MenuNode; at: { x: number; y: number } } | null>(null);
  const [iconsLoaded, setIconsLoaded] = useState(0);
  const canvas = useRef<GraphCanvasHandle>(null);
  const search = useRef<HTMLInputElement>(null);
  const actions = useNodeActions(owned);
  const toast = useToast();

  const style = useMemo<StyleContext>(
    () => ({
      custom,
      owned,
      iconImage: (name) => iconImage(name, () => setIconsLoaded((n) => n + 1)),
      edgeColor: canvasColors().edge,
      gapColor: canvasColors().background,
    }),
    // iconsLoaded and theme are here to restyle once a custom icon arrives or the theme changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [custom, owned, iconsLoaded, theme],
  );
  const byKey = useMemo(() => new Map(graph.nodes.map((n) => [n.key, n])), [graph]);
  const byObjectId = useMemo(() => new Map(graph.nodes.map((n) => [n.objectId, n])), [graph]);
  const selectedNode = view.select;
  const selectedEdge = view.selectEdge ? graph.edges.find((e) => e.key === view.selectEdge) : undefined;
  const selected = selectedEdge
    ? { type: 'edge' as const, key: selectedEdge.key }
    : selectedNode && byObjectId.get(selectedNode)
      ? { type: 'node' as const, key: byObjectId.get(selectedNode)!.key }
      : undefined;

  // Paths read best left to right (BloodHound's sequential layout); other results start with the force layout.
  // The menu changes it for the result on screen.
  useEffect(() => setLayout(drawn.source.type === 'path' ? 'hierarchical' : 'force'), [drawn.source.type]);

  // "/" (or Ctrl+K) goes to the search box from anywhere on the page that is not a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      const typing = target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
      if ((e.key === '/' && !typing) || (e.key === 'k' && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        update({ tab: 'search' });
        // The Search panel mounts when its tab is shown: focus its box once it is there.
        let frames = 0;
        const focus = () => (search.current ? search.current.focus() : ++frames < 30 && requestAnimationFrame(focus));
        requestAnimationFrame(focus);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [update]);

  useEffect(() => {
    if (!toast.message) return;
    const t = setTimeout(toast.clear, 5000);
    return () => clearTimeout(t);
  }, [toast.message, toast.clear]);

  const selectNode = (key: string) => {
    const n = byKey.get(key);
    if (n) update({ select: n.objectId, selectEdge: undefined }, { replace: true });
  };
  // A Cypher answer is drawn without properties; the export asks for them.
  const exportGraph = async () =>
    graph.propertiesOmitted && drawn.source.type === 'cypher' ? cypherGraphWithProperties(drawn.source.query) : graph;
  const panelOpen = !!selectedNode || !!selectedEdge;
  const loading = drawn.isFetching;
  const error = drawn.error;

  return (
    <div className={`explore${panelOpen ? '' : ' no-panel'}`}>
      <div className="sidebar">
        <Tabs className="tabs" selectedKey={view.tab} onSelectionChange={(k) => update({ tab: k as typeof view.tab })}>
          <TabList aria-label="Explore">
            <Tab id="search">Search</Tab>
            <Tab id="pathfinding">Pathfinding</Tab>
            <Tab id="cypher">Cypher</Tab>
          </TabList>
          <TabPanel id="search" className="tab-panel">
            <SearchTab
              ref={search}
              custom={custom}
              current={view.node ? { objectId: view.node, name: byObjectId.get(view.node)?.name ?? '' } : undefined}
              onChoose={(n) => update({ node: n.objectId, list: undefined, select: n.objectId, selectEdge: undefined })}
            />
            {error && view.tab === 'search' && (
              <p role="alert" className="error">
                {(error as Error).message}
              </p>
            )}
          </TabPanel>
          <TabPanel id="pathfinding" className="tab-panel">
            <PathfindingTab
              start={view.start}
              end={view.end}
              excluded={view.exclude ?? []}
              summary={drawn.source.type === 'path' ? drawn.data?.summary : undefined}
              custom={custom}
              onChange={(patch) => update({ ...patch, select: undefined, selectEdge: undefined })}
            />
            {error && view.tab === 'pathfinding' && (
              <p role="alert" className="error">
                {(error as Error).message}
              </p>
            )}
          </TabPanel>
          <TabPanel id="cypher" className="tab-panel">
            <CypherTab
              query={view.cypher ?? ''}
              userId={session.id}
              error={view.tab === 'cypher' ? error : undefined}
              running={loading}
              summary={drawn.source.type === 'cypher' ? drawn.data?.summary : undefined}
              table={drawn.source.type === 'cypher' ? drawn.data?.table : undefined}
              onRun={(q) => update({ cypher: q, run: true, select: undefined, selectEdge: undefined })}
            />
          </TabPanel>
        </Tabs>
      </div>

      <section className="stage" aria-label="Graph view">
        <div className="toolbar">
          <label className="sr-only" htmlFor="layout">
            Layout
          </label>
          <select id="layout" style={{ width: 190 }} value={layout} onChange={(e) => setLayout(e.target.value as LayoutId)}>
            {LAYOUTS.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </select>
          <button type="button" aria-pressed={mode === 'table'} onClick={() => setMode(mode === 'graph' ? 'table' : 'graph')}>
            {mode === 'graph' ? 'Table view' : 'Graph view'}
          </button>
          <span className="spacer" />
          <button type="button" aria-label="Zoom in" onClick={() => canvas.current?.zoomIn()}>
            +
          </button>
          <button type="button" aria-label="Zoom out" onClick={() => canvas.current?.zoomOut()}>
            −
          </button>
          <button type="button" onClick={() => canvas.current?.fit()}>
            Fit
          </button>
          <button
            type="button"
            aria-label="Export JSON"
            disabled={!graph.nodes.length}
            onClick={() =>
              void exportGraph().then(
                (g) => downloadBlob('graph.json', new Blob([exportJson(g)], { type: 'application/json' })),
                (err: Error) => toast.show(`Export failed: ${err.message}`, true),
              )
            }
          >
            ↓ JSON
          </button>
          <button
            type="button"
            aria-label="Export PNG"
            disabled={!graph.nodes.length}
            onClick={() => void canvas.current?.png().then((blob) => downloadBlob('graph.png', blob))}
          >
            ↓ PNG
          </button>
        </div>
        <div style={{ visibility: mode === 'graph' ? 'visible' : 'hidden' }}>
          <GraphCanvas
            ref={canvas}
            graph={graph}
            style={style}
            layout={layout}
            selected={selected}
            theme={theme}
            onSelectNode={selectNode}
            onSelectEdge={(key) => update({ selectEdge: key, select: undefined }, { replace: true })}
            onClear={() => update({ select: undefined, selectEdge: undefined }, { replace: true })}
            onNodeMenu={(key, at) => {
              const n = byKey.get(key);
              if (n) setMenu({ node: { objectId: n.objectId, name: n.name }, at });
            }}
          />
        </div>
        {mode === 'table' && (
          <ResultTable
            graph={graph}
            owned={owned}
            selected={selected}
            onSelectNode={selectNode}
            onSelectEdge={(key) => update({ selectEdge: key, select: undefined }, { replace: true })}
          />
        )}
        {!graph.nodes.length && !loading && mode === 'graph' && (
          <div className="overlay">
            <p>{drawn.source.type === 'none' ? 'Search a node, find paths or run a Cypher query to draw a graph.' : 'Nothing to draw.'}</p>
          </div>
        )}
        <div className="status" role="status" aria-live="polite">
          {loading ? (
            <>
              <span className="spinner" aria-hidden /> Loading…
            </>
          ) : graph.nodes.length ? (
            `${graph.nodes.length.toLocaleString()} nodes, ${graph.edges.length.toLocaleString()} edges`
          ) : (
            ''
          )}
        </div>
        <div className="legend" aria-hidden>
          <span>
            <span className="ring" style={{ borderColor: MARKERS.tierZero }} />
            Tier Zero
          </span>
          <span>
            <span className="ring" style={{ borderColor: MARKERS.owned }} />
            Owned
          </span>
        </div>
        {toast.message && (
          <div className={`toast${toast.error ? ' error' : ''}`} role={toast.error ? 'alert' : 'status'}>
            {toast.message}
            <button type="button" className="link" onClick={toast.clear} aria-label="Dismiss">
              ✕
            </button>
          </div>
        )}
        {menu && <NodeMenuAt node={menu.node} at={menu.at} actions={actions} onClose={() => setMenu(null)} />}
      </section>

      {selectedEdge ? (
        <EdgePanel
          edge={selectedEdge}
          source={byKey.get(selectedEdge.source)}
          target={byKey.get(selectedEdge.target)}
          propertiesOmitted={graph.propertiesOmitted}
          onSelectNode={(objectId) => update({ select: objectId, selectEdge: undefined }, { replace: true })}
        />
      ) : selectedNode ? (
        <EntityPanel
          objectId={selectedNode}
          custom={custom}
          owned={owned}
          openList={view.node === selectedNode && view.tab === 'search' ? view.list : undefined}
          onOpenList={(list) => update({ tab: 'search', node: selectedNode, list, select: selectedNode })}
          actions={actions}
        />
      ) : (
        <div />
      )}
    </div>
  );
}

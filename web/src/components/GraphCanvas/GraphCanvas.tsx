import { toBlob } from '@sigma/export-image';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import Sigma from 'sigma';
import type { ExploreGraph } from '../../core/graph/model';
import { BUILTIN_ICONS } from '../../../../src/graph/kinds';
import { buildCanvasGraph, nodeDisplay, type CanvasGraph, type NodeDisplay, type StyleContext } from '../../core/graph/sigmaGraph';
import { layoutById, prewarmLayoutWorker, type LayoutId, type LayoutRun } from '../../core/layouts';
import { canvasColors } from '../../core/theme/theme';
import { EDGE_PROGRAMS, LeanNodeProgram, nodeLabels, NodeProgram } from './programs';

export interface GraphCanvasHandle {
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  /** The picture as drawn, as a PNG. */
  png(): Promise<Blob>;
}

export interface GraphCanvasProps {
  graph: ExploreGraph;
  style: StyleContext;
  layout: LayoutId;
  /** The selected node's or edge's key. */
  selected?: { type: 'node' | 'edge'; key: string };
  theme: string;
  onSelectNode(key: string): void;
  onSelectEdge(key: string): void;
  onClear(): void;
  /** Right click or long press on a node, at a point of the page. */
  onNodeMenu(key: string, at: { x: number; y: number }): void;
}

const LONG_PRESS_MS = 550;

/** One invisible node per built-in kind icon (see the renderer's creation). */
function warmUpGraph(style: StyleContext): CanvasGraph {
  const icons = [...new Set(Object.values(BUILTIN_ICONS).map((i) => i.icon))];
  const graph = buildCanvasGraph({ nodes: [], edges: [] }, style);
  icons.forEach((icon, i) =>
    graph.addNode(`warm-up-${icon}`, {
      ...nodeDisplay({ key: '', objectId: '', name: '', kinds: [], kind: '', properties: {} }, style),
      image: style.iconImage(icon),
      label: '',
      size: 0.01,
      x: i,
      y: 0,
    }),
  );
  return graph;
}
/** Above this many edges a result is drawn lean (see the graph effect). */
const LARGE_EDGES = 2000;

/**
 * The graph canvas (sigma.js, WebGL): nodes with their kind's icon and colour and the Tier Zero / owned rings,
 * edges labelled with their kind, zoom and pan, nodes dragged to move them, a click to select, right click or long
 * press for the node menu. Its element tells what it draws (data-node-count, data-edge-count) and whether the
 * layout is still running (data-layout).
 */
export const GraphCanvas = forwardRef<GraphCanvasHandle, GraphCanvasProps>(function GraphCanvas(props, ref) {
  const container = useRef<HTMLDivElement>(null);
  const sigma = useRef<Sigma | null>(null);
  const graphRef = useRef<CanvasGraph | null>(null);
  const run = useRef<LayoutRun | null>(null);
  const cb = useRef(props);
  cb.current = props;
  const styles = useRef(new Map<string, Partial<NodeDisplay>>());
  const colors = useRef(canvasColors());
  const isLarge = useRef(false);
  const [drawn, setDrawn] = useState({ nodes: 0, edges: 0, layout: 'idle' as 'idle' | 'running' | 'done' });

  // One renderer for the component's life; graphs are swapped into it.
  useEffect(() => {
    prewarmLayoutWorker();
    const initial = colors.current;
    const labels = nodeLabels(() => colors.current);
    // The first graph is one dot per built-in icon, too small to see: drawing it loads every icon's texture while
    // nothing is on screen, so a large first result is not redrawn when its icons arrive.
    const s = new Sigma(warmUpGraph(cb.current.style), container.current!, {
      defaultNodeType: 'node',
      nodeProgramClasses: { node: NodeProgram, lean: LeanNodeProgram },
      edgeProgramClasses: EDGE_PROGRAMS,
      renderEdgeLabels: true,
      enableEdgeEvents: true,
      labelColor: { color: initial.label },
      edgeLabelColor: { color: initial.label },
      labelRenderedSizeThreshold: 4,
      labelFont: 'system-ui, sans-serif',
      defaultDrawNodeLabel: labels.label,
      defaultDrawNodeHover: labels.hover,
      zIndex: true,
      // Room for the toolbar above, the status line below and labels (centred under their node) at the sides.
      stagePadding: 110,
      minCameraRatio: 0.02,
      maxCameraRatio: 20,
      nodeReducer: (key, attrs) => {
        const sel = cb.current.selected;
        const out = { ...attrs, ...styles.current.get(key) };
        return sel?.type === 'node' && sel.key === key ? { ...out, highlighted: true, zIndex: 1 } : out;
      },
      edgeReducer: (key, attrs) => {
        const sel = cb.current.selected;
        return sel?.type === 'edge' && sel.key === key
          ? { ...attrs, color: '#4da3ff', size: 4, zIndex: 1 }
          : { ...attrs, color: colors.current.edge };
      },
    });
    sigma.current = s;

    let press: { key: string; timer: number; x: number; y: number } | null = null;
    let dragging: string | null = null;
    let moved = false;
    const cancelPress = () => {
      if (press) window.clearTimeout(press.timer);
      press = null;
    };
    s.on('downNode', ({ node, event }) => {
      dragging = node;
      moved = false;
      const orig = event.original as MouseEvent | TouchEvent;
      const pt = 'touches' in orig ? orig.touches[0]! : orig;
      cancelPress();
      press = {
        key: node,
        x: pt.clientX,
        y: pt.clientY,
        timer: window.setTimeout(() => {
          if (press && !moved) {
            dragging = null;
            cb.current.onNodeMenu(press.key, { x: press.x, y: press.y });
          }
          press = null;
        }, LONG_PRESS_MS),
      };
    });
    s.on('moveBody', ({ event }) => {
      if (!dragging) return;
      moved = true;
      cancelPress();
      const pos = s.viewportToGraph(event);
      graphRef.current?.mergeNodeAttributes(dragging, { x: pos.x, y: pos.y });
      event.preventSigmaDefault();
      event.original.preventDefault();
    });
    const drop = () => {
      dragging = null;
      cancelPress();
    };
    s.on('upNode', drop);
    s.on('upStage', drop);
    s.on('clickNode', ({ node }) => {
      if (!moved) cb.current.onSelectNode(node);
    });
    s.on('clickEdge', ({ edge }) => cb.current.onSelectEdge(edge));
    s.on('clickStage', () => cb.current.onClear());
    s.on('rightClickNode', ({ node, event }) => {
      event.preventSigmaDefault();
      const orig = event.original as MouseEvent;
      orig.preventDefault();
      cb.current.onNodeMenu(node, { x: orig.clientX, y: orig.clientY });
    });
    s.on('enterNode', () => container.current?.classList.add('pointer'));
    s.on('leaveNode', () => container.current?.classList.remove('pointer'));
    const el = container.current!;
    const noMenu = (e: Event) => e.preventDefault();
    el.addEventListener('contextmenu', noMenu);
    return () => {
      el.removeEventListener('contextmenu', noMenu);
      // Forgotten first: a cancelled run settles, and must not draw into the renderer killed here.
      const last = run.current;
      run.current = null;
      last?.cancel();
      s.kill();
      sigma.current = null;
    };
  }, []);

  // A new result: build its graph (keeping positions of nodes drawn before), then lay it out. A small one is drawn
  // at once and moves as the layout runs; a large one is drawn once, laid out (see `large` below).
  useEffect(() => {
    const s = sigma.current!;
    run.current?.cancel();
    // A large result is drawn lean: small nodes without icons, thin lines without labels or arrowheads, no edge
    // picking pass, edges hidden while the camera moves, no camera animation, and only once its layout is done.
    // Each frame of thousands of edges is costly where WebGL is rendered in software (headless, no GPU), so it is
    // drawn as few times as possible, with as few pixels as possible.
    const large = props.graph.edges.length > LARGE_EDGES;
    isLarge.current = large;
    const graph = buildCanvasGraph(props.graph, props.style, graphRef.current ?? undefined, { lean: large });
    graphRef.current = graph;
    performance.mark('gas:graph-built');
    const show = () => {
      s.setSetting('renderEdgeLabels', !large);
      s.setSetting('enableEdgeEvents', !large);
      s.setSetting('hideEdgesOnMove', large);
      s.setSetting('defaultEdgeType', large ? 'line' : 'arrow');
      // Small nodes get their labels once zoomed in, where they no longer cover each other.
      s.setSetting('labelRenderedSizeThreshold', large ? 8 : 4);
      s.setGraph(graph);
      s.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 });
    };
    if (!large) show();
    if (graph.order <= 1) {
      setDrawn({ nodes: graph.order, edges: graph.size, layout: 'done' });
      return;
    }
    setDrawn((d) => (large ? { ...d, layout: 'running' } : { nodes: graph.order, edges: graph.size, layout: 'running' }));
    const current = layoutById(props.layout).run(graph);
    run.current = current;
    const finish = () => {
      if (run.current !== current) return;
      performance.mark('gas:layout-done');
      if (large) show();
      else s.getCamera().animatedReset({ duration: 200 });
      setDrawn({ nodes: graph.order, edges: graph.size, layout: 'done' });
    };
    current.done.then(finish, finish);
    // The style context is read when a result arrives; its own changes restyle in place (below).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.graph, props.layout]);

  // Marker and icon changes (owned set, custom kinds loaded) and theme changes restyle through the reducers: no
  // graph event, so no partial repaint racing sigma's first indexation of a new graph.
  useEffect(() => {
    const restyle = new Map<string, Partial<NodeDisplay>>();
    for (const n of props.graph.nodes) {
      // Size and program stay as the graph was built (a large result's nodes are small).
      const { x: _x, y: _y, size: _size, ...style } = nodeDisplay(n, props.style);
      restyle.set(n.key, style);
    }
    styles.current = restyle;
    sigma.current?.refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.style]);

  useEffect(() => {
    sigma.current?.refresh({ skipIndexation: true });
  }, [props.selected]);

  useEffect(() => {
    const s = sigma.current;
    colors.current = canvasColors();
    if (!s) return;
    s.setSetting('labelColor', { color: colors.current.label });
    s.setSetting('edgeLabelColor', { color: colors.current.label });
  }, [props.theme]);

  useImperativeHandle(ref, () => ({
    zoomIn: () => void sigma.current?.getCamera().animatedZoom({ duration: 200 }),
    zoomOut: () => void sigma.current?.getCamera().animatedUnzoom({ duration: 200 }),
    fit: () => void sigma.current?.getCamera().animatedReset({ duration: 200 }),
    png: () => toBlob(sigma.current!, { format: 'png', backgroundColor: canvasColors().background }),
  }));

  return (
    <div
      ref={container}
      className="canvas"
      role="img"
      aria-label="Graph"
      aria-roledescription="graph canvas"
      data-node-count={drawn.nodes}
      data-edge-count={drawn.edges}
      data-layout={drawn.layout}
    />
  );
});

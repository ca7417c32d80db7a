import { createNodeBorderProgram } from '@sigma/node-border';
import { EdgeCurvedArrowProgram } from '@sigma/edge-curve';
import { createNodeImageProgram } from '@sigma/node-image';
import { EdgeArrowProgram, EdgeLineProgram } from 'sigma/rendering';
import { createNodeCompoundProgram } from 'sigma/rendering';
import { labelLines } from '../../core/graph/labels';

/**
 * A node: the owned ring outside, the Tier Zero ring inside it, the kind's colour, and the kind's icon on top (each
 * ring is the node's colour where the node has no such marker).
 */
export const NodeProgram = createNodeCompoundProgram([
  createNodeBorderProgram({
    // Each ring has a thin gap of the canvas colour inside it, so it reads as a ring on a node of a near colour.
    borders: [
      { size: { value: 0.12 }, color: { attribute: 'ownedRing' } },
      { size: { value: 0.05 }, color: { attribute: 'ownedGap' } },
      { size: { value: 0.12 }, color: { attribute: 'tierRing' } },
      { size: { value: 0.05 }, color: { attribute: 'tierGap' } },
      { size: { fill: true }, color: { attribute: 'color' } },
    ],
  }),
  createNodeImageProgram({
    padding: 0.42,
    size: { mode: 'force', value: 128 },
    drawingMode: 'color',
    colorAttribute: 'pictoColor',
    // Textures are made once the icons a graph needs have arrived together: each texture update redraws the whole
    // graph (seconds for 20,000 edges under software WebGL), and the default 500 ms wait shows bare discs first.
    debounceTimeout: 50,
  }),
]);

/**
 * A node of a large result: the same rings and colour without the icon, which is not legible at that size and
 * would double the pixels drawn.
 */
export const LeanNodeProgram = createNodeBorderProgram({
  borders: [
    { size: { value: 0.2 }, color: { attribute: 'ownedRing' } },
    { size: { value: 0.2 }, color: { attribute: 'tierRing' } },
    { size: { fill: true }, color: { attribute: 'color' } },
  ],
});

/** Edge programs by type; `line` (one-pixel lines, no arrowheads) draws large results, cheapest to render. */
export const EDGE_PROGRAMS = { arrow: EdgeArrowProgram, curvedArrow: EdgeCurvedArrowProgram, line: EdgeLineProgram };

type LabelData = { x: number; y: number; size: number; label: string | null };
type LabelSettings = { labelSize: number; labelFont: string; labelWeight: string };

/**
 * Node labels under their node, centred, on a plate of the canvas colour (as BloodHound draws them), so a label
 * never runs into the next node of a path; hovered and selected nodes get a bold one on the panel colour.
 */
export function nodeLabels(colors: () => { label: string; background: string; panel: string }) {
  const draw = (ctx: CanvasRenderingContext2D, data: LabelData, settings: LabelSettings, bold: boolean) => {
    if (!data.label) return;
    const { label, background, panel } = colors();
    const size = settings.labelSize;
    ctx.font = `${bold ? 600 : settings.labelWeight} ${size}px ${settings.labelFont}`;
    const lines = labelLines(data.label, (t) => ctx.measureText(t).width);
    const widths = lines.map((t) => ctx.measureText(t).width);
    const width = Math.max(...widths);
    const lineHeight = size + 2;
    const top = data.y + data.size + size + 2;
    ctx.fillStyle = bold ? panel : background;
    ctx.globalAlpha = bold ? 0.95 : 0.75;
    ctx.beginPath();
    ctx.roundRect(data.x - width / 2 - 4, top - size, width + 8, lineHeight * (lines.length - 1) + size + 6, 3);
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.fillStyle = label;
    lines.forEach((t, i) => ctx.fillText(t, data.x - widths[i]! / 2, top + i * lineHeight));
  };
  return {
    label: (ctx: CanvasRenderingContext2D, data: LabelData, settings: LabelSettings) => draw(ctx, data, settings, false),
    hover: (ctx: CanvasRenderingContext2D, data: LabelData, settings: LabelSettings) => draw(ctx, data, settings, true),
  };
}

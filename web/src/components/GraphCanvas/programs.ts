import { createNodeBorderProgram } from '@sigma/node-border';
import { EdgeCurvedArrowProgram } from '@sigma/edge-curve';
import { createNodeImageProgram } from '@sigma/node-image';
import { EdgeArrowProgram } from 'sigma/rendering';
import { createNodeCompoundProgram } from 'sigma/rendering';

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
    // Textures are made as each icon arrives (the default waits 500 ms, so a first graph would show bare discs).
    debounceTimeout: null,
  }),
]);

export const EDGE_PROGRAMS = { arrow: EdgeArrowProgram, curvedArrow: EdgeCurvedArrowProgram };

/**
 * The label of a hovered or selected node, on a plate of the theme's panel colour (sigma's default is white,
 * unreadable in the dark theme).
 */
export function hoverLabel(colors: () => { label: string; background: string }) {
  return (
    ctx: CanvasRenderingContext2D,
    data: { x: number; y: number; size: number; label: string | null },
    settings: { labelSize: number; labelFont: string; labelWeight: string },
  ) => {
    if (!data.label) return;
    const { label, background } = colors();
    const size = settings.labelSize;
    ctx.font = `600 ${size}px ${settings.labelFont}`;
    const width = ctx.measureText(data.label).width;
    const x = data.x + data.size + 3;
    ctx.fillStyle = background;
    ctx.globalAlpha = 0.92;
    ctx.beginPath();
    ctx.roundRect(x - 4, data.y - size / 2 - 5, width + 10, size + 10, 4);
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.fillStyle = label;
    ctx.fillText(data.label, x + 1, data.y + size / 3);
  };
}

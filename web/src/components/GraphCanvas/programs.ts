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
    borders: [
      { size: { value: 0.14 }, color: { attribute: 'ownedRing' } },
      { size: { value: 0.14 }, color: { attribute: 'tierRing' } },
      { size: { fill: true }, color: { attribute: 'color' } },
    ],
  }),
  createNodeImageProgram({ padding: 0.34, size: { mode: 'force', value: 128 }, drawingMode: 'color', colorAttribute: 'pictoColor' }),
]);

export const EDGE_PROGRAMS = { arrow: EdgeArrowProgram, curvedArrow: EdgeCurvedArrowProgram };

import { forceLayout } from './collection/force';
import { hierarchicalLayout } from './collection/hierarchical';
import type { LayoutDefinition, LayoutId } from './types';

export type { LayoutDefinition, LayoutId, LayoutRun } from './types';
export { prewarmLayoutWorker } from './types';

/** Every layout the canvas offers, in the order the menu shows them. */
export const LAYOUTS: readonly LayoutDefinition[] = [forceLayout, hierarchicalLayout];

export const layoutById = (id: LayoutId): LayoutDefinition => LAYOUTS.find((l) => l.id === id) ?? forceLayout;

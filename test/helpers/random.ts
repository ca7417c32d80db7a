export { rng } from '../../src/generate/sharphound';

export const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

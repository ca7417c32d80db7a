/** Messages between the app and its layout worker (src/core/layouts/layout.worker.ts). */
export type LayoutRequest =
  | {
      type: 'force';
      /** ForceAtlas2's node matrix (10 floats a node) and edge matrix (3 a edge). */
      nodes: Float32Array;
      edges: Float32Array;
      settings: Record<string, unknown>;
      /** At most this many iterations … */
      maxIterations: number;
      /** … and at most this long, in milliseconds. */
      maxMs: number;
      /** Positions are posted this often (ms) while it runs. */
      frameMs: number;
    }
  | {
      type: 'hierarchical';
      nodes: { key: string; width: number; height: number }[];
      edges: [string, string][];
      /** Direction of the ranks: left to right, as BloodHound's sequential layout. */
      rankdir: 'LR' | 'TB';
    };

export type LayoutAnswer =
  | { type: 'frame'; nodes: Float32Array }
  | { type: 'done'; nodes: Float32Array; iterations: number }
  | { type: 'positions'; positions: Record<string, [number, number]> }
  | { type: 'error'; message: string };

import { describe, expect, it } from 'vitest';
import { formatBytes, isFinished, JOB_STATUS, resultSummary } from './status';

describe('ingest job display', () => {
  it('words statuses as BloodHound does and knows which are final', () => {
    expect(JOB_STATUS.COMPLETE).toBe('Complete');
    expect(isFinished('COMPLETE')).toBe(true);
    expect(isFinished('INGESTING')).toBe(false);
    expect(isFinished('ANALYZING')).toBe(false);
  });

  it('summarises a file result and sizes', () => {
    expect(resultSummary({ objects: 1200, nodes: 1100, edges: 5000, domains: { a: 1 } })).toBe('1,200 objects, 1,100 nodes, 5,000 edges');
    expect(resultSummary(null)).toBe('');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});

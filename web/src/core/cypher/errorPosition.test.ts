import { describe, expect, it } from 'vitest';
import { errorPosition, offsetOf } from './errorPosition';

describe('query error positions', () => {
  it('reads the line and column an error message names', () => {
    expect(errorPosition('Invalid input at line 2, column 7: expected RETURN')).toEqual({ line: 2, column: 7 });
    expect(errorPosition('syntax error (1:12)')).toEqual({ line: 1, column: 12 });
    expect(errorPosition('no position here')).toBeUndefined();
  });

  it('turns a position into an offset in the text', () => {
    expect(offsetOf('MATCH (n)\nRETRUN n', { line: 2, column: 1 })).toBe(10);
    expect(offsetOf('abc', { line: 9, column: 9 })).toBe(3);
  });
});

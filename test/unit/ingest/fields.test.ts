import { field, list, str } from '../../../src/ingest/fields';

/** SharpHound's JSON is read case-insensitively, as BloodHound's Go decoder reads it. */
describe('reading collector fields', () => {
  it('prefers the exact key, then any key that differs only in case', () => {
    expect(field({ SPNTargets: [1] }, 'SpnTargets')).toEqual([1]);
    expect(field({ spntargets: [2], SpnTargets: [3] }, 'SpnTargets')).toEqual([3]);
    expect(str({ guid: 'g' }, 'GUID')).toBe('g');
  });

  it('takes the last of several keys that differ only in case (Go keeps the last)', () => {
    expect(field({ guid: 'a', Guid: 'b', GUID_X: 'c' }, 'GUID')).toBe('b');
  });

  it('finds nothing in objects that lack the key, or in what is not an object', () => {
    const o = { Name: 'x', Names: ['y'] };
    expect(field(o, 'nam')).toBeUndefined();
    expect(field(o, 'Missing')).toBeUndefined();
    expect(list(o, 'names')).toEqual(['y']);
    expect(field(['Name'], 'Name')).toBeUndefined();
    expect(field(null, 'Name')).toBeUndefined();
    expect(field('Name', 'length')).toBeUndefined();
  });

  it('keeps a JSON key named like an object built-in as data', () => {
    const o = JSON.parse('{"__proto__": {"x": 1}, "Constructor": 2}') as object;
    expect(field(o, '__proto__')).toEqual({ x: 1 });
    expect(field(o, 'constructor')).toBe(2);
  });
});

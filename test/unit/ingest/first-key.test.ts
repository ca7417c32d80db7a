import { firstKey } from '../../../src/ingest/ingest-stream';

/** Which thread reads a file is chosen by its first key: "meta"/"data" go to the conversion worker, the rest stay. */
describe('the first key of a file', () => {
  const key = (text: string | Buffer) => firstKey(Buffer.isBuffer(text) ? text : Buffer.from(text));

  it('reads the first key after a byte order mark and white space', () => {
    expect(key('{"meta": {"type": "users"}, "data": []}')).toBe('meta');
    expect(key('\uFEFF \r\n\t{ \n "data": [')).toBe('data');
    expect(key('{"graph": {"nodes": []}}')).toBe('graph');
    expect(key('{"metadata": {}, "graph": {}}')).toBe('metadata');
    expect(key('{"ünïcode": 1}')).toBe('ünïcode');
  });

  it('asks for more bytes while the key is not complete', () => {
    expect(key('')).toBeNull();
    expect(key('   ')).toBeNull();
    expect(key('{')).toBeNull();
    expect(key('{ "me')).toBeNull();
    expect(key(Buffer.from([0xef, 0xbb, 0xbf]))).toBeNull();
  });

  it('gives up on what does not start as an object with a plain key', () => {
    expect(key('[{"meta": 1}]')).toBeUndefined();
    expect(key('{}')).toBeUndefined();
    expect(key('{"me\\u0074a": {}}')).toBeUndefined();
    expect(key(`{"${'k'.repeat(100)}`)).toBeUndefined();
    expect(key('null')).toBeUndefined();
  });
});

import { NotificationScanner } from '../../src/db/session-notices';

/** Backend messages as PostgreSQL writes them: a type byte, a length counting itself, the body. */
function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
const cstring = (s: string) => Buffer.from(`${s}\0`, 'utf8');
function notification(channel: string, payload: string, pid = 42): Buffer {
  const p = Buffer.alloc(4);
  p.writeInt32BE(pid);
  return message('A', Buffer.concat([p, cstring(channel), cstring(payload)]));
}
const dataRow = (text: string) => message('D', Buffer.concat([Buffer.from([0, 1, 0, 0, 0, Buffer.byteLength(text)]), Buffer.from(text)]));
const readyForQuery = message('Z', Buffer.from('I'));

function scan(chunks: Uint8Array[]): string[] {
  const seen: string[] = [];
  const scanner = new NotificationScanner({ notice: (c, p) => seen.push(`${c}:${p}`), unlistened: () => seen.push('unlistened') });
  for (const c of chunks) scanner.feed(c);
  return seen;
}

describe('NotificationScanner', () => {
  // An answer with rows that hold what a notification looks like, a large row, notifications and a commit's end.
  const answer = Buffer.concat([
    message('1', Buffer.alloc(0)),
    dataRow('A\0\0\0\x10gas_auth\0fake\0'),
    dataRow('x'.repeat(70_000)),
    notification('gas_auth', ''),
    message('C', cstring('COMMIT')),
    notification('other', 'ünïcødé'),
    readyForQuery,
  ]);

  it('reports the notifications of an answer, and nothing a row only looks like', () => {
    expect(scan([answer])).toEqual(['gas_auth:', 'other:ünïcødé']);
  });

  it('reads an answer split at any byte, and one byte at a time', () => {
    const whole = scan([answer]);
    for (let at = 0; at <= answer.length; at += at < 80 ? 1 : 997) {
      expect(scan([answer.subarray(0, at), answer.subarray(at)])).toEqual(whole);
    }
    expect(scan([...answer].map((b) => Uint8Array.of(b)))).toEqual(whole);
  });

  it('stops reading, without throwing, at output that cannot be protocol', () => {
    const bad = Buffer.from([0x41, 0xff, 0xff, 0xff, 0xf0, 1, 2, 3]);
    expect(scan([Buffer.concat([notification('gas_auth', 'first'), bad, notification('gas_auth', 'after')])])).toEqual(['gas_auth:first']);
    expect(scan([Buffer.from([0x41, 0, 0])])).toEqual([]); // a header cut short
    expect(scan([message('A', Buffer.from([0, 0, 0, 1]))])).toEqual([]); // no channel
  });

  it('a listener that throws does not stop the answer being read', () => {
    const seen: string[] = [];
    const fail = (what: string) => {
      seen.push(what);
      throw new Error('listener failed');
    };
    const scanner = new NotificationScanner({ notice: fail, unlistened: () => fail('unlistened') });
    const answer = Buffer.concat([notification('a', ''), message('C', cstring('UNLISTEN')), notification('b', '')]);
    expect(() => scanner.feed(answer)).not.toThrow();
    expect(seen).toEqual(['a', 'unlistened', 'b']);
  });

  it("reports the commands that end the session's LISTENs, and no other", () => {
    const tags = ['SELECT 1', 'UNLISTEN', 'LISTEN', 'DISCARD ALL', 'DISCARD PLANS', 'INSERT 0 1', 'COMMIT'];
    expect(scan([Buffer.concat([...tags.map((t) => message('C', cstring(t))), readyForQuery])])).toEqual(['unlistened', 'unlistened']);
  });
});

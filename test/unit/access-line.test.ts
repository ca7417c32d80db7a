import { accessLineWriter } from '../../src/http/access-log';
import { createLogger } from '../../src/logger';
import { logSink } from '../helpers/log-sink';

/** The access line is written without pino's per-call path; it must read exactly as pino would have written it. */
describe('access line writer', () => {
  const ISO = /"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/;
  const withoutTime = (line: string) => line.replace(ISO, '"time":"T"');

  function both(level: 'debug' | 'info' | 'warn' | 'error', fields: Record<string, unknown>, msg: string) {
    const ours = logSink();
    const theirs = logSink();
    accessLineWriter(createLogger('debug', ours.stream))(level, fields, msg);
    createLogger('debug', theirs.stream)[level](fields, msg);
    expect(ours.lines).toHaveLength(1);
    expect(theirs.lines).toHaveLength(1);
    return { ours: ours.lines[0]!, theirs: theirs.lines[0]! };
  }

  const typical = {
    reqId: '0b7f4c1e-6a1f-4a52-9d3e-2f1c7d9e8a01',
    req: {
      id: '0b7f4c1e-6a1f-4a52-9d3e-2f1c7d9e8a01',
      method: 'GET',
      url: '/api/v2/users/S-1-5-21-1-2-3-1105?counts=false',
      remoteAddress: '::ffff:127.0.0.1',
      headers: { host: '127.0.0.1:3000', 'user-agent': 'bhe-go-sdk/1.0', requestdate: '2026-11-26T16:00:00Z' },
    },
    res: { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '547' } },
    responseTime: 3,
  };

  it.each(['debug', 'info', 'warn', 'error'] as const)('writes a %s line byte for byte as pino does', (level) => {
    const { ours, theirs } = both(level, typical, 'request completed');
    expect(withoutTime(ours)).toBe(withoutTime(theirs));
    expect(ours.endsWith('}\n')).toBe(true);
    expect(JSON.parse(ours)).toMatchObject({ level: { debug: 20, info: 30, warn: 40, error: 50 }[level], service: 'gas' });
  });

  it('keeps hostile header and URL text inside one valid JSON line', () => {
    const hostile = '"},"level":60,"x":"\\\n\r\t\u0000\u2028\u2029\ud800 é 漢 </script>';
    const fields = {
      ...typical,
      req: { ...typical.req, url: `/api/v2/users/${hostile}`, headers: { host: hostile, 'user-agent': hostile } },
    };
    const { ours, theirs } = both('info', fields, 'request aborted');
    expect(ours.split('\n')).toHaveLength(2);
    const parsed = JSON.parse(ours);
    expect(parsed).toEqual({ ...JSON.parse(theirs), time: parsed.time });
    expect(parsed.level).toBe(30);
    expect(parsed.req.headers['user-agent']).toBe(hostile);
    expect(parsed.msg).toBe('request aborted');
  });

  it('writes a line with no fields', () => {
    const { ours, theirs } = both('info', {}, 'request completed');
    expect(withoutTime(ours)).toBe(withoutTime(theirs));
  });
});

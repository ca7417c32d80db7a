import { computeSignature, dateLink, decodeSignature, parseRequestDate, signRequest } from '../../src/auth/signature';

// Vectors computed independently with Python's hmac module (method+uri, date[:13], body), as in the
// BloodHound documentation's reference client.
const KEY = 'Zm9vYmFyLXRva2VuLWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY3OA==';

describe('request signature chain', () => {
  it('matches an independent implementation for a GET with a query string and an empty body', () => {
    const sig = computeSignature(KEY, 'GET', '/api/v2/permissions/1?x=%20y', '2026-11-22T10:15:00+01:00');
    expect(sig.toString('base64')).toBe('Rx0LTYOadGO7kpKGeI9iDxPLWxLPfnkcPgaTs9Se5bY=');
  });

  it('matches an independent implementation for a POST with a body', () => {
    const sig = computeSignature(KEY, 'POST', '/api/v2/tokens', '2026-11-22T10:59:59.123Z', '{"token_name":"ci"}');
    expect(sig.toString('base64')).toBe('3pIsOWnsGVwl/e0rkZ8pgTgyKIRfSekJfQ+W8W2gCRg=');
  });

  it('binds the date only to the hour, in the client offset', () => {
    const a = computeSignature(KEY, 'GET', '/x', '2026-11-22T10:00:00Z');
    expect(computeSignature(KEY, 'GET', '/x', '2026-11-22T10:59:59Z')).toEqual(a);
    expect(computeSignature(KEY, 'GET', '/x', '2026-11-22T11:00:00Z')).not.toEqual(a);
    expect(dateLink('2026-11-22t10:00:00z')).toBe('2026-11-22T10');
  });

  it('signs what signRequest puts in the headers', () => {
    const date = new Date('2026-01-02T03:04:05Z');
    const h = signRequest({ tokenId: 'id', tokenKey: KEY, method: 'get', target: '/a?b=1', date });
    expect(h).toEqual({
      Authorization: 'apisignature id',
      RequestDate: '2026-01-02T03:04:05.000Z',
      Signature: computeSignature(KEY, 'GET', '/a?b=1', '2026-01-02T03:04:05.000Z').toString('base64'),
    });
  });

  it.each([
    ['2026-11-22T10:15:00Z', true],
    ['2026-11-22T10:15:00.123456789+05:30', true],
    ['2026-11-22t10:15:00z', true],
    ['2026-11-22 10:15:00Z', false],
    ['2026-11-22T10:15:00', false],
    ['yesterday', false],
    ['2026-13-45T10:15:00Z', false],
  ])('parses RequestDate %s: %s', (value, ok) => {
    expect(parseRequestDate(value) !== undefined).toBe(ok);
  });

  it('accepts only standard base64 of 32 bytes as a Signature', () => {
    expect(decodeSignature('Rx0LTYOadGO7kpKGeI9iDxPLWxLPfnkcPgaTs9Se5bY=')).toHaveLength(32);
    expect(decodeSignature('Rx0LTYOadGO7kpKGeI9iDxPLWxLPfnkcPgaTs9Se5bY')).toBeUndefined();
    expect(decodeSignature('Rx0LTYOadGO7kpKGeI9iDxPLWxLPfnkcPgaTs9Se5b_=')).toBeUndefined();
    expect(decodeSignature('AAAA')).toBeUndefined();
  });
});

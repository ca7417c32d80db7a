import { redactUrl } from '../../src/logger';

describe('redactUrl', () => {
  it.each([
    ['/api/v2/users/S-1-5-21-1', '/api/v2/users/S-1-5-21-1'],
    ['/api/v2/users/S-1?counts=false', '/api/v2/users/S-1?counts=false'],
    ['/api/v2/search?q=token', '/api/v2/search?q=token'],
    ['/x?token=abc', '/x?token=[Redacted]'],
    ['/x?a=1&API_KEY=abc&b=2', '/x?a=1&API_KEY=[Redacted]&b=2'],
    ['/x?SAMLResponse=PHNhbWw%2B', '/x?SAMLResponse=[Redacted]'],
    // A name spelt with escapes is read decoded.
    ['/x?%74oken=abc&counts=true', '/x?%74oken=[Redacted]&counts=true'],
    ['/x?%63ounts=true', '/x?%63ounts=true'],
    // A name that cannot be decoded is logged as sent, its value hidden all the same.
    ['/x?%zz=1&counts=true', '/x?%zz=[Redacted]&counts=true'],
    ['/x?flag&password', '/x?flag&password'],
    ['/x?', '/x?'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('passes anything but a string through', () => {
    expect(redactUrl(undefined)).toBeUndefined();
    expect(redactUrl(42)).toBe(42);
  });
});

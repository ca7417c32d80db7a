import { clientKey, ipv6Groups, WindowCounter } from '../../src/http/rate-limit';

describe('WindowCounter', () => {
  it('counts a client within its window and starts a new one after it', () => {
    let now = 10_000;
    const c = new WindowCounter(1000, () => now);
    expect(c.hit('a')).toEqual({ hits: 1, resetAt: 11_000, now: 10_000 });
    now = 10_400;
    expect(c.hit('a').hits).toBe(2);
    expect(c.hit('b').hits).toBe(1); // another client, its own count
    now = 11_000; // the window's end belongs to the next window
    expect(c.hit('a')).toEqual({ hits: 1, resetAt: 12_000, now: 11_000 });
  });

  it('keeps a window that began before a sweep until it ends', () => {
    let now = 0;
    const c = new WindowCounter(1000, () => now);
    now = 900;
    c.hit('a'); // window 900..1900
    now = 1000; // sweep: a moves to the previous map
    c.hit('b');
    now = 1500;
    expect(c.hit('a').hits).toBe(2);
  });

  it('forgets clients not seen for two windows', () => {
    let now = 0;
    const c = new WindowCounter(1000, () => now);
    for (let i = 0; i < 100; i++) c.hit(`client-${i}`);
    expect(c.size).toBe(100);
    now = 1000;
    c.hit('x');
    now = 2000;
    c.hit('x');
    expect(c.size).toBe(2); // x in both maps, the hundred gone
  });
});

describe('clientKey', () => {
  it('keys IPv4 by its address, also when a dual-stack socket maps it into IPv6', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:198.51.100.1')).toBe('198.51.100.1');
  });

  it('keys IPv6 by its /56', () => {
    expect(clientKey('2001:db8:1:2345:aaaa::1')).toBe('2001:db8:1:2300::/56');
    expect(clientKey('2001:db8:1:23ff:bbbb::2')).toBe('2001:db8:1:2300::/56');
    expect(clientKey('2001:db8:1:2400::1')).toBe('2001:db8:1:2400::/56');
    expect(clientKey('::1')).toBe('0:0:0:0::/56');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/56');
  });

  it('keeps what is not an address as it is', () => {
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('not:an:address')).toBe('not:an:address');
  });

  it('reads the groups of every IPv6 spelling', () => {
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('64:ff9b::192.0.2.33')).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221]);
    expect(ipv6Groups('1.2.3.4')).toBeUndefined();
  });
});

import net from 'node:net';

/**
 * The counter key of a client address. IPv4 is its own key, and so is an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * how a dual-stack listener sees IPv4 clients). Other IPv6 addresses count by their /56, the smallest block a site is
 * usually given: one client cycling through its own addresses is still one client.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  const hex = (n: number) => n.toString(16);
  return `${hex(groups[0]!)}:${hex(groups[1]!)}:${hex(groups[2]!)}:${hex(groups[3]! & 0xff00)}::/56`;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded IPv4 read); undefined when it is not one. */
export function ipv6Groups(address: string): number[] | undefined {
  const ip = address.split('%', 1)[0]!;
  if (!net.isIPv6(ip)) return undefined;
  const toGroups = (part: string): number[] => {
    if (!part) return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(g, 16));
    }
    return out;
  };
  const gap = ip.indexOf('::');
  if (gap < 0) return toGroups(ip);
  const head = toGroups(ip.slice(0, gap));
  const tail = toGroups(ip.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

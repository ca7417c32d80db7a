/** Properties BloodHound shows first in an entity panel's Object Information, in its order. */
const FIRST = ['name', 'objectid', 'displayname', 'samaccountname', 'distinguishedname', 'domain', 'description', 'enabled', 'admincount'];

/** Properties holding Unix seconds (SharpHound writes times so); 0 and -1 mean never. */
const TIMES = /^(lastlogon|lastlogontimestamp|pwdlastset|whencreated|lastseen|lastcollected|createdat|updatedat)$/i;

/** A property's value as one line of text: times as dates, lists joined, objects as JSON. */
export function formatProperty(key: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && TIMES.test(key)) {
    if (value <= 0) return 'Never';
    return new Date(value * 1000)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
  }
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The properties in panel order: BloodHound's first ones, then the rest by name. */
export function orderedProperties(props: Record<string, unknown>): [string, unknown][] {
  const entries = Object.entries(props).filter(([, v]) => v !== null && v !== undefined && v !== '');
  const rank = (k: string) => {
    const i = FIRST.indexOf(k.toLowerCase());
    return i < 0 ? FIRST.length : i;
  };
  return entries.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

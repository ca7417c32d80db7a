/**
 * The temporal values BloodHound's queries use: `datetime()` (now, or parsed), `date()`, `duration()` and their
 * arithmetic and fields, above all `datetime().epochseconds`, compared with BloodHound's epoch-second properties
 * (pwdlastset, lastlogontimestamp, whencreated). Datetimes are instants with an offset kept for display; the engine
 * does not know named time zones.
 */

const MS_PER_DAY = 86_400_000;

export class DurationV {
  constructor(
    readonly months: number,
    readonly days: number,
    readonly seconds: number,
    readonly nanos: number,
  ) {}

  key(): string {
    return `${this.months}/${this.days}/${this.seconds}/${this.nanos}`;
  }

  /** ISO 8601, as Neo4j prints durations (P1Y2M3DT4H5M6.5S; PT0S for zero). */
  toString(): string {
    const y = Math.trunc(this.months / 12);
    const m = this.months % 12;
    let s = 'P';
    if (y) s += `${y}Y`;
    if (m) s += `${m}M`;
    if (this.days) s += `${this.days}D`;
    const h = Math.trunc(this.seconds / 3600);
    const mi = Math.trunc((this.seconds % 3600) / 60);
    const sec = (this.seconds % 60) + this.nanos / 1e9;
    if (h || mi || sec) {
      s += 'T';
      if (h) s += `${h}H`;
      if (mi) s += `${mi}M`;
      if (sec) s += `${Number(sec.toFixed(9))}S`;
    }
    return s === 'P' ? 'PT0S' : s;
  }

  field(name: string): number | undefined {
    switch (name) {
      case 'years':
        return Math.trunc(this.months / 12);
      case 'months':
        return this.months;
      case 'days':
        return this.days;
      case 'hours':
        return Math.trunc(this.seconds / 3600);
      case 'minutes':
        return Math.trunc(this.seconds / 60);
      case 'seconds':
        return this.seconds;
      case 'milliseconds':
        return this.seconds * 1000 + Math.trunc(this.nanos / 1e6);
      case 'nanoseconds':
        return this.seconds * 1e9 + this.nanos;
      default:
        return undefined;
    }
  }

  negate(): DurationV {
    return new DurationV(-this.months, -this.days, -this.seconds, -this.nanos);
  }

  plus(o: DurationV): DurationV {
    return new DurationV(this.months + o.months, this.days + o.days, this.seconds + o.seconds, this.nanos + o.nanos);
  }

  /** From `duration({days: 90, hours: 1})`. */
  static fromMap(m: Record<string, number>): DurationV {
    const n = (k: string) => m[k] ?? 0;
    const months = n('years') * 12 + n('months');
    const days = n('weeks') * 7 + n('days');
    const secondsF =
      n('hours') * 3600 + n('minutes') * 60 + n('seconds') + n('milliseconds') / 1e3 + n('microseconds') / 1e6 + n('nanoseconds') / 1e9;
    const seconds = Math.trunc(secondsF);
    return new DurationV(Math.trunc(months), Math.trunc(days), seconds, Math.round((secondsF - seconds) * 1e9));
  }

  /** From ISO 8601 (`P90D`, `PT12H`, `P1Y2M`); undefined when the text is not one. */
  static parse(text: string): DurationV | undefined {
    const m =
      /^P(?:(-?\d+(?:\.\d+)?)Y)?(?:(-?\d+(?:\.\d+)?)M)?(?:(-?\d+(?:\.\d+)?)W)?(?:(-?\d+(?:\.\d+)?)D)?(?:T(?:(-?\d+(?:\.\d+)?)H)?(?:(-?\d+(?:\.\d+)?)M)?(?:(-?\d+(?:\.\d+)?)S)?)?$/i.exec(
        text.trim(),
      );
    if (!m || text.trim().length <= 1) return undefined;
    const f = (i: number) => (m[i] ? Number(m[i]) : 0);
    return DurationV.fromMap({ years: f(1), months: f(2), weeks: f(3), days: f(4), hours: f(5), minutes: f(6), seconds: f(7) });
  }
}

export class DateTimeV {
  constructor(
    /** The instant, in milliseconds since 1970 UTC. */
    readonly epochMillis: number,
    /** The offset it is shown in, in minutes east of UTC. */
    readonly offsetMinutes = 0,
  ) {}

  key(): string {
    return String(this.epochMillis);
  }

  compareTo(o: DateTimeV): number {
    return this.epochMillis - o.epochMillis;
  }

  private local(): Date {
    return new Date(this.epochMillis + this.offsetMinutes * 60_000);
  }

  toString(): string {
    const iso = this.local()
      .toISOString()
      .replace(/\.000Z$/, 'Z');
    if (!this.offsetMinutes) return iso;
    const sign = this.offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(this.offsetMinutes);
    return `${iso.slice(0, -1)}${sign}${String(Math.trunc(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }

  field(name: string): number | string | undefined {
    const d = this.local();
    switch (name.toLowerCase()) {
      case 'epochseconds':
        return Math.floor(this.epochMillis / 1000);
      case 'epochmillis':
        return this.epochMillis;
      case 'year':
        return d.getUTCFullYear();
      case 'month':
        return d.getUTCMonth() + 1;
      case 'day':
        return d.getUTCDate();
      case 'hour':
        return d.getUTCHours();
      case 'minute':
        return d.getUTCMinutes();
      case 'second':
        return d.getUTCSeconds();
      case 'millisecond':
        return d.getUTCMilliseconds();
      case 'dayofweek':
        return ((d.getUTCDay() + 6) % 7) + 1;
      case 'timezone':
      case 'offset':
        return this.toString().slice(23) || 'Z';
      default:
        return undefined;
    }
  }

  plus(d: DurationV): DateTimeV {
    const local = this.local();
    if (d.months) local.setUTCMonth(local.getUTCMonth() + d.months);
    const ms = local.getTime() - this.offsetMinutes * 60_000 + d.days * MS_PER_DAY + d.seconds * 1000 + Math.trunc(d.nanos / 1e6);
    return new DateTimeV(ms, this.offsetMinutes);
  }

  /** From ISO 8601 (`2024-01-31T12:00:00Z`, `2024-01-31T12:00:00+02:00`, `2024-01-31`); undefined when it is not one. */
  static parse(text: string): DateTimeV | undefined {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
    if (!m) return undefined;
    const frac = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
    const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), frac);
    if (Number.isNaN(utc)) return undefined;
    let offset = 0;
    if (m[8] && m[8] !== 'Z') {
      const sign = m[8][0] === '-' ? -1 : 1;
      const digits = m[8].slice(1).replace(':', '');
      offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
    }
    return new DateTimeV(utc - offset * 60_000, offset);
  }
}

export class DateV {
  constructor(/** Days since 1970-01-01. */ readonly days: number) {}

  key(): string {
    return String(this.days);
  }

  toString(): string {
    return new Date(this.days * MS_PER_DAY).toISOString().slice(0, 10);
  }

  field(name: string): number | undefined {
    const d = new Date(this.days * MS_PER_DAY);
    switch (name.toLowerCase()) {
      case 'year':
        return d.getUTCFullYear();
      case 'month':
        return d.getUTCMonth() + 1;
      case 'day':
        return d.getUTCDate();
      case 'epochseconds':
        return this.days * 86_400;
      default:
        return undefined;
    }
  }

  plus(d: DurationV): DateV {
    const date = new Date(this.days * MS_PER_DAY);
    if (d.months) date.setUTCMonth(date.getUTCMonth() + d.months);
    return new DateV(Math.floor(date.getTime() / MS_PER_DAY) + d.days + Math.trunc(d.seconds / 86_400));
  }

  static parse(text: string): DateV | undefined {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
    if (!m) return undefined;
    return new DateV(Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY));
  }

  static ofMillis(ms: number): DateV {
    return new DateV(Math.floor(ms / MS_PER_DAY));
  }
}

/** duration.between(a, b) for datetimes and dates: the difference as days and seconds. */
export function durationBetween(a: DateTimeV | DateV, b: DateTimeV | DateV): DurationV {
  const ms = (x: DateTimeV | DateV) => (x instanceof DateTimeV ? x.epochMillis : x.days * MS_PER_DAY);
  const diff = ms(b) - ms(a);
  const days = Math.trunc(diff / MS_PER_DAY);
  const rest = diff - days * MS_PER_DAY;
  return new DurationV(0, days, Math.trunc(rest / 1000), (rest % 1000) * 1e6);
}

import { rrulestr, RRule } from 'rrule';
import { badRequest } from '../../errors.js';

/** Collection may not run more often than this (a rule's first occurrences are checked). */
export const MIN_SCHEDULE_GAP_MS = 15 * 60_000;

const RANGES: Record<string, [number, number]> = {
  BYSECOND: [0, 59],
  BYMINUTE: [0, 59],
  BYHOUR: [0, 23],
  BYMONTH: [1, 12],
  BYMONTHDAY: [-31, 31],
  BYYEARDAY: [-366, 366],
  BYWEEKNO: [-53, 53],
  INTERVAL: [1, 1000],
};

export interface Schedule {
  /** The rule as stored: `DTSTART…\nRRULE:…`, lines trimmed and joined with \n. */
  text: string;
  rule: RRule;
}

/**
 * Parses a collection event's recurrence rule (RFC 5545, the `rrule` package). Accepted: exactly one DTSTART line
 * (UTC `…Z`, floating, or with TZID) and one RRULE line, in either order; COUNT and UNTIL are allowed and end the
 * schedule. Refused with a 400 that gives the reason: anything else (RDATE, EXDATE, EXRULE, a second RRULE),
 * no DTSTART, values out of range, a rule with no occurrence, or occurrences less than 15 minutes apart.
 */
export function parseSchedule(context: string, input: unknown): Schedule {
  if (typeof input !== 'string' || !input.trim()) throw badRequest(context, 'rrule is required: a DTSTART line and an RRULE line.');
  const lines = input
    .split(/\r?\n|\\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const dtstart = lines.filter((l) => /^DTSTART[:;]/i.test(l));
  const rrules = lines.filter((l) => /^RRULE:/i.test(l));
  if (dtstart.length !== 1) throw badRequest(context, 'invalid rrule specified: exactly one DTSTART is required.');
  if (rrules.length !== 1) throw badRequest(context, 'invalid rrule specified: exactly one RRULE line is required.');
  const other = lines.find((l) => !dtstart.includes(l) && !rrules.includes(l));
  if (other) throw badRequest(context, `invalid rrule specified: only DTSTART and RRULE are accepted, not "${other.slice(0, 40)}".`);
  for (const part of rrules[0]!.slice('RRULE:'.length).split(';')) {
    const [key, value = ''] = part.split('=');
    const range = RANGES[key!.toUpperCase()];
    if (!range) continue;
    const bad = value
      .split(',')
      .find((v) => !/^[+-]?\d+$/.test(v) || Number(v) < range[0] || Number(v) > range[1] || (Number(v) === 0 && range[0] < 0));
    if (bad !== undefined)
      throw badRequest(context, `invalid rrule specified: ${key} value "${bad}" is out of range ${range[0]}..${range[1]}.`);
  }
  const text = `${dtstart[0]}\n${rrules[0]}`;
  let rule: RRule;
  try {
    const parsed = rrulestr(text);
    if (!(parsed instanceof RRule)) throw new Error('a single RRULE is required');
    rule = parsed;
  } catch (err) {
    throw badRequest(context, `invalid rrule specified: ${(err as Error).message}`);
  }
  if (rule.options.freq === RRule.SECONDLY)
    throw badRequest(context, 'invalid rrule specified: FREQ=SECONDLY is not accepted for collection.');
  const first = rule.all((_, i) => i < 10);
  if (first.length === 0) throw badRequest(context, 'invalid rrule specified: the rule has no occurrences.');
  for (let i = 1; i < first.length; i++) {
    if (first[i]!.getTime() - first[i - 1]!.getTime() < MIN_SCHEDULE_GAP_MS) {
      throw badRequest(context, 'invalid rrule specified: collection may not be scheduled more often than every 15 minutes.');
    }
  }
  return { text, rule };
}

/** The first occurrence at or after `from`; null when the rule has ended. */
export function nextOccurrence(rule: RRule, from: Date): Date | null {
  return rule.after(from, true);
}

/** The first occurrence strictly after `from`. */
export function occurrenceAfter(rule: RRule, from: Date): Date | null {
  return rule.after(from, false);
}

/** A short human title ("every day at 3") for jobs made from the rule. */
export function describeSchedule(rule: RRule): string {
  try {
    return rule.toText();
  } catch {
    return 'scheduled collection';
  }
}

import { CFloat, NodeV, PathV, RelV, type MapValue, type Value } from '../../src/cypher/execute/values';
import { DateTimeV, DateV, DurationV } from '../../src/cypher/execute/temporal';
import type { CypherGraph } from '../../src/cypher/graph/graph';

/**
 * The openCypher TCK's value notation (`(:A {name: 'a'})`, `[:T]`, `<(:A)-[:T]->(:B)>`, `1.0`, `'s'`, lists, maps)
 * parsed into one canonical text, and engine values rendered to the same text, so results compare as strings.
 * Labels and map keys are sorted; with `unorderedLists` list elements are too (the TCK's "ignoring element order").
 */

export function canonicalOf(v: Value, g: CypherGraph, unorderedLists = false): string {
  const c = (x: Value) => canonicalOf(x, g, unorderedLists);
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return `I:${v}`;
  if (v instanceof CFloat) return `F:${v.v}`;
  if (typeof v === 'string') return `S:${JSON.stringify(v)}`;
  if (Array.isArray(v)) {
    const items = v.map(c);
    if (unorderedLists) items.sort();
    return `[${items.join(',')}]`;
  }
  if (v instanceof NodeV) return node(g.labels(v.id), mapText(g.nodeProperties(v.id), c));
  if (v instanceof RelV) return rel(v.type, mapText(g.relProperties(v), c));
  if (v instanceof PathV) {
    let s = `<${canonicalOf(v.nodes[0]!, g)}`;
    v.rels.forEach((r, i) => {
      const forward = r.start === v.nodes[i]!.id && (r.end === v.nodes[i + 1]!.id || r.start !== r.end);
      s += forward ? `-${canonicalOf(r, g)}->` : `<-${canonicalOf(r, g)}-`;
      s += canonicalOf(v.nodes[i + 1]!, g);
    });
    return `${s}>`;
  }
  if (v instanceof DateTimeV || v instanceof DateV || v instanceof DurationV) return `T:${v.toString()}`;
  return mapText(v as MapValue, c);
}

const node = (labels: string[], props: string) =>
  `(${[...labels]
    .sort()
    .map((l) => `:${l}`)
    .join('')}${props === '{}' ? '' : ` ${props}`})`;
const rel = (type: string, props: string) => `[:${type}${props === '{}' ? '' : ` ${props}`}]`;

function mapText(m: MapValue, c: (v: Value) => string): string {
  return `{${Object.keys(m)
    .sort()
    .map((k) => `${k}:${c(m[k]!)}`)
    .join(',')}}`;
}

/** Parses one TCK cell into the canonical text (and, for parameters, into a value: `valueOf`). */
export function canonicalOfText(text: string, unorderedLists = false): string {
  const p = new Reader(text.trim(), unorderedLists);
  const out = p.value().canonical;
  p.end();
  return out;
}

/** A TCK parameter's value. */
export function valueOfText(text: string): Value {
  const p = new Reader(text.trim(), false);
  const out = p.value().value;
  p.end();
  return out;
}

interface Parsed {
  canonical: string;
  value: Value;
}

class Reader {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly unordered: boolean,
  ) {}

  end(): void {
    this.ws();
    if (this.i !== this.s.length) throw new Error(`TCK value: unexpected ${this.s.slice(this.i)}`);
  }

  private ws(): void {
    while (/\s/.test(this.s[this.i] ?? '')) this.i++;
  }

  private peek(t: string): boolean {
    this.ws();
    return this.s.startsWith(t, this.i);
  }

  private eat(t: string): void {
    if (!this.peek(t)) throw new Error(`TCK value: expected ${t} at ${this.s.slice(this.i)}`);
    this.i += t.length;
  }

  private name(): string {
    this.ws();
    if (this.s[this.i] === '`') {
      const end = this.s.indexOf('`', this.i + 1);
      const n = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return n;
    }
    const m = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(this.s.slice(this.i));
    if (!m) throw new Error(`TCK value: expected a name at ${this.s.slice(this.i)}`);
    this.i += m[0].length;
    return m[0];
  }

  value(): Parsed {
    this.ws();
    const c = this.s[this.i];
    if (c === '[') {
      // a relationship [:T …] or a list
      if (/^\[\s*:/.test(this.s.slice(this.i))) return { canonical: this.relationship(), value: null };
      this.eat('[');
      const items: Parsed[] = [];
      if (!this.peek(']')) {
        do items.push(this.value());
        while (this.peek(',') && (this.eat(','), true));
      }
      this.eat(']');
      const texts = items.map((x) => x.canonical);
      if (this.unordered) texts.sort();
      return { canonical: `[${texts.join(',')}]`, value: items.map((x) => x.value) };
    }
    if (c === '{') {
      const m = this.map();
      return { canonical: mapCanonical(m), value: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.value])) };
    }
    if (c === '(') return { canonical: this.node(), value: null };
    if (c === '<') return { canonical: this.path(), value: null };
    if (c === "'" || c === '"') {
      const s = this.string();
      return { canonical: `S:${JSON.stringify(s)}`, value: s };
    }
    const rest = this.s.slice(this.i);
    for (const [word, value] of [
      ['null', null],
      ['true', true],
      ['false', false],
    ] as const) {
      if (rest.startsWith(word)) {
        this.i += word.length;
        return { canonical: String(value), value };
      }
    }
    const special = /^(-?)(NaN|Infinity|Inf)/.exec(rest);
    if (special) {
      this.i += special[0].length;
      const v = special[2] === 'NaN' ? NaN : special[1] ? -Infinity : Infinity;
      return { canonical: `F:${v}`, value: new CFloat(v) };
    }
    const num = /^-?(0x[0-9a-fA-F]+|0o[0-7]+|\d+(\.\d+)?([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)/.exec(rest);
    if (num) {
      this.i += num[0].length;
      const t = num[0];
      if (/[.eE]/.test(t) && !/^-?0x/.test(t)) return { canonical: `F:${Number(t)}`, value: new CFloat(Number(t)) };
      const n = Number(t.startsWith('-') ? -Number(t.slice(1)) : Number(t));
      return { canonical: `I:${n}`, value: n };
    }
    throw new Error(`TCK value: cannot read ${rest}`);
  }

  private string(): string {
    const q = this.s[this.i]!;
    this.i++;
    let out = '';
    while (this.i < this.s.length && this.s[this.i] !== q) {
      if (this.s[this.i] === '\\') {
        const e = this.s[this.i + 1]!;
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        this.i += 2;
      } else out += this.s[this.i++];
    }
    this.i++;
    return out;
  }

  private map(): Record<string, Parsed> {
    this.eat('{');
    const out: Record<string, Parsed> = {};
    if (!this.peek('}')) {
      do {
        const k = this.name();
        this.eat(':');
        out[k] = this.value();
      } while (this.peek(',') && (this.eat(','), true));
    }
    this.eat('}');
    return out;
  }

  private node(): string {
    this.eat('(');
    const labels: string[] = [];
    while (this.peek(':')) {
      this.eat(':');
      labels.push(this.name());
    }
    const props = this.peek('{') ? mapCanonical(this.map()) : '{}';
    this.eat(')');
    return node(labels, props);
  }

  private relationship(): string {
    this.eat('[');
    this.eat(':');
    const type = this.name();
    const props = this.peek('{') ? mapCanonical(this.map()) : '{}';
    this.eat(']');
    return rel(type, props);
  }

  private path(): string {
    this.eat('<');
    let s = `<${this.node()}`;
    while (!this.peek('>')) {
      if (this.peek('<-')) {
        this.eat('<-');
        const r = this.relationship();
        this.eat('-');
        s += `<-${r}-`;
      } else {
        this.eat('-');
        const r = this.relationship();
        this.eat('->');
        s += `-${r}->`;
      }
      s += this.node();
    }
    this.eat('>');
    return `${s}>`;
  }
}

function mapCanonical(m: Record<string, Parsed>): string {
  return `{${Object.keys(m)
    .sort()
    .map((k) => `${k}:${m[k]!.canonical}`)
    .join(',')}}`;
}

import { mayNeedRepair, repairText, type TextRepairs } from './text-repair.js';

/**
 * Streams a collector file shaped `{"meta": {...}, "data": [item, item, …]}` (keys in any order, other keys
 * ignored) without holding it in memory: a byte scanner finds each element of the top-level `data` array and hands
 * it to JSON.parse on its own, so memory is bounded by the largest single object. Structural errors are reported
 * with their line and byte position.
 */
export class JsonStreamError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly offset: number,
  ) {
    super(`${message} at line ${line}, byte ${offset}`);
  }
}

export interface SplitterHandlers {
  meta(value: unknown): void;
  item(value: unknown): void;
  /**
   * Offered the JSON text of each data item before it is parsed (in pieces, as read); returning true takes it as
   * it is, unparsed and not passed to item(). The position is where the item ends, for a later error message.
   */
  itemText?(parts: readonly Buffer[], at: { line: number; offset: number }): boolean;
  /** OpenGraph: the top-level "metadata" object. */
  metadata?(value: unknown): void;
  /** OpenGraph: the "graph" object starts (called before any of its nodes or edges). */
  graph?(): void;
  /** OpenGraph: one element of "graph.nodes" or "graph.edges", with its index in that array. */
  graphItem?(kind: 'node' | 'edge', value: unknown, index: number): void;
}

type CaptureKind = 'item' | 'meta' | 'metadata' | 'node' | 'edge';
const DESCRIBE: Readonly<Record<CaptureKind, string>> = {
  item: 'data item',
  meta: '"meta"',
  metadata: '"metadata"',
  node: 'graph node',
  edge: 'graph edge',
};

/** Bounds that keep one hostile file from exhausting memory; each is refused with its position. */
export interface SplitterLimits {
  /** Bytes of one data item (or of "meta"). */
  maxItemBytes: number;
  /** Bytes of one string anywhere in the document (a property value, a name, …). */
  maxStringBytes: number;
  /** Nesting depth of containers (SharpHound needs about 6, OpenGraph properties 3). */
  maxDepth: number;
}

export const DEFAULT_SPLITTER_LIMITS: SplitterLimits = {
  maxItemBytes: 32 * 1024 * 1024,
  maxStringBytes: 1024 * 1024,
  maxDepth: 64,
};

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  LBRACE = 0x7b,
  RBRACE = 0x7d,
  LBRACKET = 0x5b,
  RBRACKET = 0x5d,
  COMMA = 0x2c,
  COLON = 0x3a,
  NEWLINE = 0x0a;
/** Strings up to this many bytes inside a captured value are walked in JavaScript (see skipInside). */
const SHORT_STRING = 64;
/** Where `byte` next occurs in `chunk` from `from` on, or the chunk's length. */
const nextIndex = (chunk: Buffer, byte: number, from: number) => {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
};
/** JSON white space. */
export const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export class JsonItemSplitter {
  private stack: number[] = []; // open containers: LBRACE / LBRACKET
  private inString = false;
  private escape = false;
  private offset = 0; // bytes consumed before the current chunk
  private line = 1;
  private started = false;
  private finished = false;
  private bom = 0;

  // top-level object bookkeeping
  // Keys are tracked at depth 1 (the document) and depth 2 inside the OpenGraph "graph" object.
  private expectKey = [false, false, false];
  private keyBytes: number[] | undefined;
  private keyDepth = 0;
  private currentKey: (string | undefined)[] = [undefined, undefined, undefined];
  private dataDepth = -1; // stack depth of the array whose elements are captured (data, graph.nodes, graph.edges)
  private arrayKind: CaptureKind = 'item';
  private graphOpen = false;
  private readonly seen = new Set<string>();
  private readonly counts = { node: 0, edge: 0 };

  // capture of one value (a data item or meta)
  private capture: { parts: Buffer[]; start: number; depth: number; kind: CaptureKind; scalar: boolean } | undefined;

  private lastToken = 0; // last structural byte outside strings, to refuse trailing commas
  private sawData = false;
  private sawMeta = false;
  private stringStart = 0; // absolute offset where the current string began
  private captured = 0; // bytes of the current capture in earlier chunks
  private readonly limits: SplitterLimits;
  /** Characters PostgreSQL cannot store, removed or replaced in what was parsed so far (text-repair.ts). */
  readonly repairs: TextRepairs = { nulRemoved: 0, surrogatesReplaced: 0 };

  constructor(
    private readonly on: SplitterHandlers,
    limits: Partial<SplitterLimits> = {},
  ) {
    this.limits = { ...DEFAULT_SPLITTER_LIMITS, ...limits };
  }

  /** Bytes consumed so far (for messages naming a place in the file). */
  get position(): { line: number; offset: number } {
    return { line: this.line, offset: this.offset };
  }

  get hasData(): boolean {
    return this.sawData;
  }

  get hasMeta(): boolean {
    return this.sawMeta;
  }

  /** Which OpenGraph arrays were present ("graph" with "nodes" and/or "edges"). */
  get graph(): { present: boolean; nodes: boolean; edges: boolean } {
    return { present: this.seen.has('graph'), nodes: this.seen.has('graph.nodes'), edges: this.seen.has('graph.edges') };
  }

  push(chunk: Buffer): void {
    let i = 0;
    if (this.offset === 0 && this.bom < 3) {
      // A UTF-8 byte order mark is accepted (and skipped).
      while (i < chunk.length && this.bom < 3 && chunk[i] === [0xef, 0xbb, 0xbf][this.bom]) {
        i++;
        this.bom++;
      }
      if (this.bom > 0 && this.bom < 3 && i === chunk.length) {
        this.offset += chunk.length;
        return;
      }
    }
    if (this.capture) this.capture.start = 0;
    // Next backslash and line break at or after a position of this chunk (searched natively, only forwards).
    let backslashAt = -1;
    let newlineAt = -1;
    for (; i < chunk.length; i++) {
      if (this.inString && !this.escape && !this.keyBytes) {
        // Inside a string only a quote or a backslash matters: jump to the next one instead of visiting each byte.
        if (backslashAt < i) backslashAt = nextIndex(chunk, BACKSLASH, i);
        const end = Math.min(nextIndex(chunk, QUOTE, i), backslashAt);
        // A raw line break is invalid in a string (JSON.parse refuses the item), but the line count stays exact.
        for (; ; newlineAt = nextIndex(chunk, NEWLINE, newlineAt + 1)) {
          if (newlineAt >= end) break;
          if (newlineAt >= i) this.line++;
        }
        const tooLong = this.stringStart + this.limits.maxStringBytes + 1 - this.offset;
        if (end > tooLong) this.fail(`a string is longer than the limit of ${this.limits.maxStringBytes} bytes`, Math.max(i, tooLong));
        i = end;
        if (i === chunk.length) break;
      }
      if (!this.inString && this.capture && this.stack.length > this.capture.depth) {
        i = this.skipInside(chunk, i);
        if (i === chunk.length) break;
      }
      const b = chunk[i]!;
      if (b === NEWLINE) this.line++;
      if (this.inString) {
        if (this.offset + i - this.stringStart > this.limits.maxStringBytes)
          this.fail(`a string is longer than the limit of ${this.limits.maxStringBytes} bytes`, i);
        if (this.escape) this.escape = false;
        else if (b === BACKSLASH) this.escape = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.keyBytes) {
            this.currentKey[this.keyDepth] = Buffer.from(this.keyBytes).toString('utf8');
            this.keyBytes = undefined;
          } else if (this.capture?.scalar && this.stack.length === this.capture.depth) this.endCapture(chunk, i + 1);
          continue;
        }
        if (this.keyBytes) this.keyBytes.push(b);
        continue;
      }
      if (isSpace(b)) {
        if (this.capture?.scalar && this.stack.length === this.capture.depth) this.endCapture(chunk, i);
        continue;
      }
      if (this.finished) this.fail('unexpected content after the end of the document', i);
      if (!this.started) {
        if (b !== LBRACE) this.fail('the file is not a JSON object (expected "{")', i);
        this.started = true;
      }
      const depth = this.stack.length;
      // A value starts inside the data array: begin capturing an item.
      if (!this.capture && this.dataDepth !== -1 && depth === this.dataDepth && b !== COMMA && b !== RBRACKET) {
        this.capture = { parts: [], start: i, depth, kind: this.arrayKind, scalar: b !== LBRACE && b !== LBRACKET };
      }
      switch (b) {
        case QUOTE:
          this.inString = true;
          this.stringStart = this.offset + i;
          if (this.keysAt(depth) && this.expectKey[depth]) {
            this.keyBytes = [];
            this.keyDepth = depth;
            this.expectKey[depth] = false;
          }
          break;
        case LBRACE:
        case LBRACKET:
          if (this.keysAt(depth) && this.currentKey[depth] !== undefined) this.valueStarts(depth, b, i);
          if (depth >= this.limits.maxDepth) this.fail(`values are nested deeper than the limit of ${this.limits.maxDepth}`, i);
          this.stack.push(b);
          if (depth === 0) this.expectKey[1] = true;
          break;
        case RBRACE:
        case RBRACKET: {
          if (this.lastToken === COMMA && !this.capture) this.fail(`unexpected "${String.fromCharCode(b)}" after ","`, i);
          if (this.capture?.scalar && depth === this.capture.depth) this.endCapture(chunk, i);
          const open = this.stack.pop();
          if (open === undefined || (open === LBRACE) !== (b === RBRACE)) this.fail(`unexpected "${String.fromCharCode(b)}"`, i);
          if (this.dataDepth !== -1 && depth === this.dataDepth) this.dataDepth = -1;
          if (this.graphOpen && depth === 2) this.graphOpen = false;
          if (this.capture && !this.capture.scalar && this.stack.length === this.capture.depth) this.endCapture(chunk, i + 1);
          if (this.stack.length === 0) this.finished = true;
          break;
        }
        case COMMA:
          if (this.capture?.scalar && depth === this.capture.depth) this.endCapture(chunk, i);
          if (this.keysAt(depth)) {
            this.expectKey[depth] = true;
            this.currentKey[depth] = undefined;
          }
          break;
        case COLON:
          break;
        default:
          // a scalar value (number, true, false, null); it clears a pending comma
          this.lastToken = 0;
          if (this.keysAt(depth) && this.currentKey[depth] !== undefined) this.scalarValue(depth, i);
      }
      if (b !== 0x20)
        this.lastToken = b === COMMA || b === LBRACE || b === LBRACKET || b === RBRACE || b === RBRACKET || b === COLON ? b : 0;
    }
    if (this.capture) {
      const part = chunk.subarray(this.capture.start);
      this.captured += part.length;
      if (this.captured > this.limits.maxItemBytes) {
        const what = DESCRIBE[this.capture.kind];
        this.capture = undefined;
        this.fail(`${what} is larger than the limit of ${this.limits.maxItemBytes} bytes`, chunk.length);
      }
      this.capture.parts.push(part);
    }
    this.offset += chunk.length;
  }

  /**
   * Inside a captured value, below its own level: what matters there is nesting, line breaks and where strings end,
   * and JSON.parse checks the rest once the value is complete. Walks from `i` over nested brackets and short strings
   * in one tight loop; returns where the usual path must take over: the value's own closing bracket, a mismatched
   * one, a string that is long, escaped across a line or not closed in this chunk, or the chunk's end.
   */
  private skipInside(chunk: Buffer, i: number): number {
    const stack = this.stack;
    const own = this.capture!.depth + 1;
    const max = this.limits.maxDepth;
    const n = chunk.length;
    for (; i < n; i++) {
      const b = chunk[i]!;
      if (b === QUOTE) {
        // A short string is walked here; anything else goes to the usual path, which finds its end natively.
        const stop = Math.min(n, i + SHORT_STRING);
        let j = i + 1;
        while (j < stop) {
          const c = chunk[j]!;
          if (c === QUOTE || c === NEWLINE) break;
          if (c !== BACKSLASH) j++;
          else if (chunk[j + 1] === NEWLINE)
            break; // an escaped line break still counts as a line
          else j += 2;
        }
        if (j >= stop || chunk[j] !== QUOTE) return i;
        i = j;
      } else if (b === LBRACE || b === LBRACKET) {
        if (stack.length >= max) return i;
        stack.push(b);
      } else if (b === RBRACE || b === RBRACKET) {
        if (stack.length <= own || (stack[stack.length - 1] === LBRACE) !== (b === RBRACE)) return i;
        stack.pop();
      } else if (b === NEWLINE) this.line++;
    }
    return i;
  }

  /** Call after the last chunk; throws if the document is incomplete. */
  end(): void {
    if (this.capture?.scalar && this.stack.length === this.capture.depth) this.endCapture(Buffer.alloc(0), 0);
    if (!this.started) throw new JsonStreamError('the file is empty', this.line, this.offset);
    if (this.inString || this.stack.length) throw new JsonStreamError('the file ends in the middle of a value', this.line, this.offset);
  }

  /** Keys are read at the document level and, inside "graph", one level down. */
  private keysAt(depth: number): boolean {
    return depth === 1 || (depth === 2 && this.graphOpen);
  }

  /** The path of a key ("meta", "graph.nodes", …) as the formats name it. */
  private path(depth: number): string {
    const key = this.currentKey[depth]!;
    // SharpHound's keys are read case-insensitively (Go's decoder); OpenGraph's are exact.
    return depth === 1 ? (/^(meta|data)$/i.test(key) ? key.toLowerCase() : key) : `graph.${key}`;
  }

  private once(path: string, i: number): void {
    if (this.seen.has(path)) this.fail(`"${path}" appears twice`, i);
    this.seen.add(path);
    if (this.seen.has('graph') && (this.seen.has('meta') || this.seen.has('data')))
      this.fail('a file holds either "meta" and "data" (SharpHound, AzureHound) or "graph" (OpenGraph), not both', i);
  }

  private scalarValue(depth: number, i: number): void {
    const path = this.path(depth);
    if (path === 'meta' || path === 'metadata' || path === 'graph') this.fail(`"${path}" must be an object`, i);
    if (path === 'data' || path === 'graph.nodes' || path === 'graph.edges') this.fail(`"${path}" must be an array`, i);
  }

  private valueStarts(depth: number, b: number, i: number): void {
    const path = this.path(depth);
    switch (path) {
      case 'data':
      case 'graph.nodes':
      case 'graph.edges':
        if (b !== LBRACKET) this.fail(`"${path}" must be an array`, i);
        this.once(path, i);
        this.dataDepth = depth + 1;
        this.arrayKind = path === 'data' ? 'item' : path === 'graph.nodes' ? 'node' : 'edge';
        if (path === 'data') this.sawData = true;
        break;
      case 'meta':
      case 'metadata':
        if (b !== LBRACE) this.fail(`"${path}" must be an object`, i);
        this.once(path, i);
        this.capture = { parts: [], start: i, depth: 1, kind: path, scalar: false };
        if (path === 'meta') this.sawMeta = true;
        break;
      case 'graph':
        if (b !== LBRACE) this.fail('"graph" must be an object', i);
        this.once(path, i);
        this.graphOpen = true;
        this.expectKey[2] = true;
        this.currentKey[2] = undefined;
        this.on.graph?.();
        break;
    }
  }

  private endCapture(chunk: Buffer, end: number): void {
    const c = this.capture!;
    c.parts.push(chunk.subarray(c.start, end));
    this.capture = undefined;
    this.captured = 0;
    if (c.parts.reduce((n, p) => n + p.length, 0) > this.limits.maxItemBytes) {
      this.fail(`${DESCRIBE[c.kind]} is larger than the limit of ${this.limits.maxItemBytes} bytes`, end);
    }
    if (c.kind === 'item' && this.on.itemText?.(c.parts, { line: this.line, offset: this.offset + end })) return;
    const text = (c.parts.length === 1 ? c.parts[0]! : Buffer.concat(c.parts)).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new JsonStreamError(`malformed ${DESCRIBE[c.kind]}: ${(err as Error).message}`, this.line, this.offset + end);
    }
    if (mayNeedRepair(text)) value = repairText(value, this.repairs);
    if (c.kind === 'meta') this.on.meta(value);
    else if (c.kind === 'item') this.on.item(value);
    else if (c.kind === 'metadata') this.on.metadata?.(value);
    else this.on.graphItem?.(c.kind, value, this.counts[c.kind]++);
  }

  private fail(message: string, i: number): never {
    throw new JsonStreamError(message, this.line, this.offset + i);
  }
}

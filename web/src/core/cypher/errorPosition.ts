/** Where in a query an error points (1-based), read from the error's locations or its message. */
export interface QueryPosition {
  line: number;
  column: number;
}

const PATTERNS = [/line (\d+),? (?:column|col\.?|position) (\d+)/i, /\((\d+):(\d+)\)/, /at (\d+):(\d+)/];

export function errorPosition(message: string): QueryPosition | undefined {
  for (const p of PATTERNS) {
    const m = p.exec(message);
    if (m) return { line: Number(m[1]), column: Number(m[2]) };
  }
  return undefined;
}

/** The character offset of a position in a text (clamped to the text). */
export function offsetOf(text: string, pos: QueryPosition): number {
  const lines = text.split('\n');
  const line = Math.min(Math.max(pos.line, 1), lines.length);
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i]!.length + 1;
  return Math.min(offset + Math.max(pos.column - 1, 0), text.length);
}

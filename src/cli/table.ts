/**
 * A plain-text table: a header row, a rule, the rows, columns padded to their widest cell (numbers to the right).
 * Cells are printed as given; numbers get thousands separators.
 */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const text = rows.map((r) => r.map((c) => (typeof c === 'number' ? c.toLocaleString('en-US') : c)));
  const right = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...text.map(line)].join('\n') + '\n';
}

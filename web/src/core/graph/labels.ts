/** Above this width (px) a name with a domain is drawn on two lines, the domain under it. */
const WIDE_LABEL_PX = 175;

/** A label's lines: `NAME@DOMAIN` too wide for one line becomes `NAME@` over `DOMAIN`, so neighbours do not overlap. */
export function labelLines(label: string, width: (s: string) => number): string[] {
  const at = label.lastIndexOf('@');
  if (at <= 0 || at === label.length - 1 || width(label) <= WIDE_LABEL_PX) return [label];
  return [label.slice(0, at + 1), label.slice(at + 1)];
}

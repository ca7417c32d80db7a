import type { AnalysisGraph, ANode } from './view.js';

/**
 * Tier Zero selector rules: BloodHound's default Tier Zero selectors are Cypher queries; ours are a small
 * declarative language an administrator can read and edit as a selector seed of type "rule". A rule is a list of
 * terms that must all hold for a node:
 *
 *   kind:Group                      the node has the kind
 *   objectid$=-512                  property ends with (case-insensitive)
 *   name^="EXCHANGE WINDOWS PERMISSIONS@"   property starts with (quotes for spaces)
 *   samaccountname="AZUREADSSOACC$"  property equals
 *   MemberOf>objectid$=-521         has an outbound edge of that kind to a node matching the condition
 *   HostsCAService>kind:EnterpriseCA
 */
export interface RuleTerm {
  /** edge kind for a neighbour condition */
  via?: string;
  kind?: string;
  prop?: string;
  op?: '=' | '^=' | '$=';
  value?: string;
}

export class RuleSyntaxError extends Error {}

const TOKEN = /\s*((?:[A-Za-z_][\w]*>)?(?:kind:[\w]+|[a-z_][\w]*(?:\^=|\$=|=)(?:"[^"]*"|[^\s"]+)))/y;
const TERM = /^(?:([A-Za-z_]\w*)>)?(?:kind:(\w+)|([a-z_]\w*)(\^=|\$=|=)(?:"([^"]*)"|(\S+)))$/;

/** Parses a rule, or throws RuleSyntaxError with a human message. */
export function parseRule(rule: string): RuleTerm[] {
  const text = rule.trim();
  if (!text) throw new RuleSyntaxError('A rule needs at least one term, e.g. "kind:Group objectid$=-512".');
  if (text.length > 500) throw new RuleSyntaxError('A rule is at most 500 characters.');
  const terms: RuleTerm[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < text.length) {
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(text);
    if (!m)
      throw new RuleSyntaxError(
        `Cannot read the rule from "${text.slice(pos).trim().slice(0, 40)}": expected kind:<Kind> or <property>(=|^=|$=)<value>.`,
      );
    const t = TERM.exec(m[1]!)!;
    terms.push(
      t[2] !== undefined
        ? { via: t[1], kind: t[2] }
        : { via: t[1], prop: t[3], op: t[4] as RuleTerm['op'], value: (t[5] ?? t[6] ?? '').toUpperCase() },
    );
    pos = TOKEN.lastIndex;
    while (pos < text.length && text[pos] === ' ') pos++;
  }
  return terms;
}

function holds(n: ANode, t: RuleTerm): boolean {
  if (t.kind !== undefined) return n.kinds.has(t.kind);
  const raw = t.prop === 'objectid' ? n.objectid : n.props[t.prop!];
  if (raw === undefined || raw === null || typeof raw === 'object') return false;
  const v = String(raw).toUpperCase();
  return t.op === '=' ? v === t.value : t.op === '^=' ? v.startsWith(t.value!) : v.endsWith(t.value!);
}

/** Every node of the view a parsed rule selects. */
export function matchRule(g: AnalysisGraph, terms: RuleTerm[]): ANode[] {
  const own = terms.filter((t) => !t.via);
  const via = terms.filter((t) => t.via);
  const kind = own.find((t) => t.kind !== undefined)?.kind;
  const candidates = kind ? g.ofKind(kind) : [...g.nodes.values()];
  return candidates.filter(
    (n) => own.every((t) => holds(n, t)) && via.every((t) => g.out(n.id, t.via!).some((e) => holds(g.node(e.endId), t))),
  );
}

/** A default Tier Zero selector: name, rule, and why (after BloodHound's default selector descriptions). */
export interface DefaultSelector {
  name: string;
  rule: string;
  description: string;
}

import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/**
 * The response budget of one GraphQL document: an estimate of how many values its answer may hold, counting every
 * field where it appears (so aliases count one by one), multiplied by the page sizes above it: a field's `limit`
 * argument (its value, a variable's value, or the services' usual default when absent) multiplies everything it
 * selects, and nested pages multiply again (depth). What a caller controls is counted; a list no argument sizes (a
 * node's kinds, a client's events) holds what the data holds and counts as one item of its fields.
 */
export const COST_LIMITS = {
  /** Values one answer may hold at most; more is a 400 naming the budget before anything runs. */
  maxValues: 20_000,
  /** A root field estimated at this many values or more takes one of its caller's costly-work turns. */
  costlyValues: 1_000,
} as const;

/** Arguments that size a list (the page size). */
const SLICING = ['limit', 'first'];
/** A slicing argument left out: the services' largest default page (10 to 100). */
const DEFAULT_SLICE = 100;
type Bound = { fixed: number } | { variable: string };

/** A selection set compiled once per document: its fields, and its nested sets with the bound that multiplies them. */
interface Plan {
  fields: number;
  nested: { bound: Bound | undefined; plan: Plan }[];
}

/** Compiles a selection set (fragments inlined, every branch of an abstract type counted: an upper bound). */
function compile(
  schema: GraphQLSchema,
  root: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): Plan {
  // `pending`: the page size of a field above that is not itself a list; it sizes the first list below (a page's nodes).
  const walk = (set: SelectionSetNode, type: GraphQLCompositeType, pending: Bound | undefined, seen: ReadonlySet<string>): Plan => {
    const plan: Plan = { fields: 0, nested: [] };
    const fieldsOf = isObjectType(type) || isInterfaceType(type) ? type.getFields() : {};
    for (const sel of set.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag.name.value)) continue;
        const on = schema.getType(frag.typeCondition.name.value);
        const inner = walk(frag.selectionSet, isCompositeType(on) ? on : type, pending, new Set([...seen, frag.name.value]));
        plan.nested.push({ bound: undefined, plan: inner });
        continue;
      }
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const on = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
        plan.nested.push({ bound: undefined, plan: walk(sel.selectionSet, isCompositeType(on) ? on : type, pending, seen) });
        continue;
      }
      // The field is one value where it appears (a list is one array); what it selects counts per item.
      plan.fields++;
      const field: GraphQLField<unknown, unknown> | undefined = fieldsOf[sel.name.value];
      if (!field || !sel.selectionSet) continue;
      const named = getNamedType(field.type);
      if (!isCompositeType(named)) continue;
      const isList = isListType(getNullableType(field.type));
      const slicing = field.args.find((a) => SLICING.includes(a.name));
      const own = slicing ? boundOf(sel.arguments?.find((a) => a.name.value === slicing.name)?.value) : undefined;
      let bound: Bound | undefined;
      let below: Bound | undefined;
      if (isList) bound = own ?? pending;
      else below = own ?? pending;
      plan.nested.push({ bound, plan: walk(sel.selectionSet, named, below, seen) });
    }
    return plan;
  };
  return walk(selectionSet, root, undefined, new Set());
}

function boundOf(value: ValueNode | undefined): Bound {
  if (!value || value.kind === Kind.NULL) return { fixed: DEFAULT_SLICE };
  if (value.kind === Kind.INT) return { fixed: Number(value.value) };
  if (value.kind === Kind.VARIABLE) return { variable: value.name.value };
  return { fixed: DEFAULT_SLICE };
}

function evaluate(plan: Plan, multiplier: number, variables: Record<string, unknown>): number {
  let total = plan.fields * multiplier;
  for (const { bound, plan: inner } of plan.nested) {
    let n = 1;
    if (bound && 'fixed' in bound) n = bound.fixed;
    else if (bound) {
      const v = variables[bound.variable];
      n = typeof v === 'number' && Number.isFinite(v) ? v : DEFAULT_SLICE;
    }
    total += evaluate(inner, multiplier * Math.max(1, n), variables);
    if (!Number.isFinite(total)) return Infinity;
  }
  return total;
}

/** Plans by document and operation name: yoga keeps parsed documents, and REST operations are parsed once. */
const plans = new WeakMap<DocumentNode, Map<string, Plan>>();

/** The estimated number of values the chosen operation's answer may hold, with these variables. */
export function estimateValues(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): number {
  let byName = plans.get(document);
  if (!byName) plans.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let plan = byName.get(key);
  if (!plan) {
    const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
    const fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
    );
    const root = op?.operation === 'mutation' ? schema.getMutationType() : op?.operation === 'query' ? schema.getQueryType() : undefined;
    plan = op && root ? compile(schema, root, op.selectionSet, fragments) : { fields: 0, nested: [] };
    byName.set(key, plan);
  }
  return evaluate(plan, 1, variables ?? {});
}

/** Plans of single root fields, by their node in the parsed document. */
const fieldPlans = new WeakMap<FieldNode, Plan>();

/** The estimate for one root field of an operation (what its resolver is about to answer), with these variables. */
export function estimateField(
  schema: GraphQLSchema,
  parent: GraphQLObjectType,
  field: FieldNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): number {
  let plan = fieldPlans.get(field);
  if (!plan) {
    plan = compile(schema, parent, { kind: Kind.SELECTION_SET, selections: [field] }, new Map(Object.entries(fragments)));
    fieldPlans.set(field, plan);
  }
  return evaluate(plan, 1, variables);
}

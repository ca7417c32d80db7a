import { parseArgs } from 'node:util';

/**
 * A command's arguments, its options named in two lists: those that take a value (`--out <dir>`) and flags
 * (`--json`). An unknown option, or a positional where `positionals` is false, fails the parse (parseArgs' strict
 * mode) with a message naming it.
 */
export function parseCommand<S extends string, B extends string = never>(
  args: string[],
  spec: { strings?: readonly S[]; flags?: readonly B[]; positionals?: boolean },
): { positionals: string[]; values: { [K in S]?: string } & { [K in B]?: boolean } } {
  const options = Object.fromEntries([
    ...(spec.strings ?? []).map((name) => [name, { type: 'string' as const }]),
    ...(spec.flags ?? []).map((name) => [name, { type: 'boolean' as const }]),
  ]);
  const { positionals, values } = parseArgs({ args, options, allowPositionals: spec.positionals ?? true });
  return { positionals, values: values as { [K in S]?: string } & { [K in B]?: boolean } };
}

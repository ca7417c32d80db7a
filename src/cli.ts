#!/usr/bin/env node
import { CommanderError } from 'commander';
import { UsageError } from './cli/args.js';
import { buildProgram } from './cli/program.js';

/**
 * `gas`: parses the command line (src/cli/program.ts) and runs the command. Exit codes: 0 done (help and --version
 * included); 1 the command failed; 2 the command line is wrong, and nothing was done.
 */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 2;
  }
  // `-v` is what many tools take for the version; commander knows one short flag for it.
  const args = argv.length === 1 && argv[0] === '-v' ? ['--version'] : argv;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (err) {
    if (err instanceof UsageError) {
      // A command line that parses but cannot be carried out as written: the command and what is wrong.
      process.stderr.write(`gas ${args.filter((a) => !a.startsWith('-'))[0] ?? ''}: ${err.message}\n`);
      return 2;
    }
    if (!(err instanceof CommanderError)) throw err;
    // Help asked for (also `gas help`), or the version: done. A `gas user` with no subcommand prints its help as an error.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0;
    return err.exitCode === 0 ? 0 : 2;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

/** An error worth one line (bad configuration, a refused request, a system error with a code); others keep their stack. */
function expected(err: unknown): boolean {
  const e = err as { code?: unknown; extensions?: unknown } | null;
  return !!e && (e.constructor?.name === 'ConfigError' || e.code !== undefined || e.extensions !== undefined);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`gas: ${expected(err) ? (err as Error).message : ((err as Error).stack ?? String(err))}\n`);
      process.exit(1);
    },
  );
}

import { InvalidArgumentError } from 'commander';

/**
 * Option value parsers for commander: each turns the text into its value or refuses it with a message naming what
 * is allowed (commander prefixes the option and the bad value, and the command exits 2).
 */

/** One of `values`, matched without regard to case and given back as listed (`--role "power user"`). */
export function oneOf<T extends string>(what: string, values: readonly T[], normalise: (v: string) => string = (v) => v) {
  return (text: string): T => {
    const found = values.find((v) => v.toLowerCase() === normalise(text).toLowerCase());
    if (!found) throw new InvalidArgumentError(`The ${what} must be one of: ${values.join(', ')}.`);
    return found;
  };
}

const integer = (name: string, min: number, what: string) => (text: string) => {
  const n = Number(text);
  if (!/^\s*-?\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`${name} takes ${what}.`);
  return n;
};

/** A whole number, 1 or more. */
export const positiveInt = (name: string) => integer(name, 1, 'a whole number of 1 or more');
/** A whole number, 0 or more. */
export const count = (name: string) => integer(name, 0, 'a whole number of 0 or more');
/** Any whole number (a seed). */
export const wholeNumber = (name: string) => integer(name, Number.MIN_SAFE_INTEGER, 'a whole number');

/** A command line that parses but cannot be carried out as written (a missing password, no files); exit code 2. */
export class UsageError extends Error {}

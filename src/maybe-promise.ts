/** A value that may already be in hand: hot paths answered from memory return it as is, without a promise. */
export type MaybePromise<T> = T | Promise<T>;

/** Any thenable, not only a native promise: libraries such as envelop hand back promise-like objects of their own. */
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';

/**
 * `next(value)` once `value` is ready: at once for a plain value, after it settles for a promise (or any thenable).
 * A throw in `next` on the plain path is a plain throw, so callers must accept both (express's router does, for
 * middleware).
 */
export function whenReady<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isThenable(value) ? Promise.resolve(value as PromiseLike<T>).then(next) : next(value as T);
}

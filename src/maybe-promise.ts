/** A value that may already be in hand: hot paths answered from memory return it as is, without a promise. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)` once `value` is ready: at once for a plain value, after it settles for a promise. A throw in `next`
 * on the plain path is a plain throw, so callers must accept both (express's router does, for middleware).
 */
export function whenReady<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

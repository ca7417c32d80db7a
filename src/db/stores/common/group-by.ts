/** Groups rows by a key column, dropping the column from each row (one query, many owners). */
export function groupBy<K, R extends object, F extends keyof R>(rows: R[], field: F): Map<K, Omit<R, F>[]> {
  const out = new Map<K, Omit<R, F>[]>();
  for (const row of rows) {
    const { [field]: key, ...rest } = row;
    const list = out.get(key as K);
    if (list) list.push(rest);
    else out.set(key as K, [rest]);
  }
  return out;
}

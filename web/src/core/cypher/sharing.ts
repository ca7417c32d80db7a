/** Who gains and who loses a query when the ticked users replace the ones it was shared with. */
export function sharingChanges(before: readonly string[], after: readonly string[]): { share: string[]; unshare: string[] } {
  const was = new Set(before);
  const now = new Set(after);
  return { share: after.filter((u) => !was.has(u)), unshare: before.filter((u) => !now.has(u)) };
}

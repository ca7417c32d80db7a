/** A busy state that says what is loading (a live region, so screen readers hear it too). */
export function Loading({ label }: { label: string }) {
  return (
    <div className="empty" role="status" aria-live="polite">
      <span className="spinner" aria-hidden /> {label}…
    </div>
  );
}

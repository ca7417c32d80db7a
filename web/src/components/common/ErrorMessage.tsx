/** An error as the server worded it, announced (role alert). */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="error">
      {message}
    </div>
  );
}

import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';

/** Runs an administrative change, then reloads `key`; keeps the last outcome to show (a message or an error). */
export function useAdminAction(key: QueryKey) {
  const client = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const m = useMutation({
    mutationFn: async (fn: () => Promise<string | void>) => (await fn()) ?? null,
    onSuccess: (msg) => setMessage(msg),
    onError: () => setMessage(null),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
  return {
    run: (fn: () => Promise<string | void>) => m.mutateAsync(fn).catch(() => undefined),
    error: m.error,
    message,
    pending: m.isPending,
  };
}

import { create } from 'zustand';

/** The last thing an action did (or why it could not), shown in a live region. */
export const useToast = create<{ message: string | null; error: boolean; show(message: string, error?: boolean): void; clear(): void }>(
  (set) => ({
    message: null,
    error: false,
    show: (message, error = false) => set({ message, error }),
    clear: () => set({ message: null }),
  }),
);

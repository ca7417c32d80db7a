import { create } from 'zustand';

export type Theme = 'dark' | 'light';
const KEY = 'gas.theme';

function initial(): Theme {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
  if (saved === 'dark' || saved === 'light') return saved;
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

/** Applies a theme to the document (CSS variables switch on `data-theme`). */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** The chosen theme, kept across visits; the system's preference until one is chosen. */
export const useTheme = create<{ theme: Theme; toggle(): void }>((set, get) => ({
  theme: initial(),
  toggle() {
    const theme = get().theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(KEY, theme);
    applyTheme(theme);
    set({ theme });
  },
}));

/** The colours the canvas draws with, read from the theme's CSS variables. */
export function canvasColors(): { edge: string; label: string; background: string; panel: string } {
  const css = getComputedStyle(document.documentElement);
  return {
    edge: css.getPropertyValue('--edge').trim() || '#5d6f82',
    label: css.getPropertyValue('--label').trim() || '#e6edf3',
    background: css.getPropertyValue('--canvas').trim() || '#0b1118',
    panel: css.getPropertyValue('--panel').trim() || '#17212c',
  };
}

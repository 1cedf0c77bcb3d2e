import { create } from 'zustand';

export type Theme = 'light' | 'dark';

/** Also read by web/public/theme-init.js, which applies the theme before React loads. */
export const THEME_STORAGE_KEY = 'tribuna-theme';
const DEFAULT_THEME: Theme = 'dark';
const THEME_COLORS: Record<Theme, string> = { dark: '#0f0a1e', light: '#ffffff' };

export function readStoredTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
}

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

export const useThemeStore = create<ThemeState>()((set, get) => ({
  theme: readStoredTheme(),
  setTheme(theme) {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      // Private browsing may refuse storage; the theme still applies for this visit.
    }
    applyTheme(theme);
    set({ theme });
  },
  toggleTheme() {
    get().setTheme(get().theme === 'dark' ? 'light' : 'dark');
  },
}));

/** The theme a toggle switches to, as the spec labels it: 'Claro' while dark is on, 'Oscuro' while light. */
export function nextThemeLabel(theme: Theme): 'Claro' | 'Oscuro' {
  return theme === 'dark' ? 'Claro' : 'Oscuro';
}

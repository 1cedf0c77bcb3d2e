import { beforeEach, describe, expect, it, vi } from 'vitest';

// The store reads localStorage when its module loads, so each test imports a fresh copy.
async function loadStore() {
  vi.resetModules();
  return import('./themeStore');
}

describe('theme store', () => {
  beforeEach(() => {
    localStorage.clear();
  });

  it('defaults to dark', async () => {
    const { useThemeStore } = await loadStore();
    expect(useThemeStore.getState().theme).toBe('dark');
  });

  it('starts from the stored theme and ignores unknown values', async () => {
    localStorage.setItem('tribuna-theme', 'light');
    expect((await loadStore()).useThemeStore.getState().theme).toBe('light');

    localStorage.setItem('tribuna-theme', 'sepia');
    expect((await loadStore()).useThemeStore.getState().theme).toBe('dark');
  });

  it('persists a change under "tribuna-theme" and applies it to <html>', async () => {
    const { useThemeStore } = await loadStore();

    useThemeStore.getState().toggleTheme();
    expect(useThemeStore.getState().theme).toBe('light');
    expect(localStorage.getItem('tribuna-theme')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe('light');

    useThemeStore.getState().toggleTheme();
    expect(localStorage.getItem('tribuna-theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);

    // A reload starts from what was saved.
    useThemeStore.getState().setTheme('light');
    expect((await loadStore()).useThemeStore.getState().theme).toBe('light');
  });

  it('labels the toggle with the theme it switches to', async () => {
    const { nextThemeLabel } = await loadStore();
    expect(nextThemeLabel('dark')).toBe('Claro');
    expect(nextThemeLabel('light')).toBe('Oscuro');
  });
});

// Apply the stored theme before React loads so the page never flashes the wrong theme.
// Loaded synchronously from <head> of web/index.html: a file, not an inline script, so the
// Content-Security-Policy needs no 'unsafe-inline'.
// Keep in sync with web/src/lib/themeStore.ts (key 'tribuna-theme', default dark).
(function () {
  var theme = 'dark';
  try {
    var stored = localStorage.getItem('tribuna-theme');
    if (stored === 'light' || stored === 'dark') theme = stored;
  } catch (e) {}
  var root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', theme === 'dark' ? '#0f0a1e' : '#ffffff');
})();

// How a device is named in the settings' list ('Chrome en Android', 'Safari en iPhone'): from the
// User-Agent it subscribed with. Only a label for the fan to tell their devices apart; never used
// to decide anything.

/** Browsers, most specific first: Edge, Opera and Samsung Internet also say Chrome; Chrome also says Safari. */
const BROWSERS: [RegExp, string][] = [
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Edg|EdgA|EdgiOS|Edge)\//, 'Edge'],
  [/\b(?:OPR|OPT|Opera)\//, 'Opera'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\b(?:Chrome|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  // A home-screen app on iOS (standalone WebKit) names no browser: it is Safari's engine.
  [/\bAppleWebKit\/.*\b(?:iPhone|iPad)\b|\b(?:iPhone|iPad)\b.*\bAppleWebKit\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

export const UNKNOWN_BROWSER = 'Navegador';

/** 'Chrome en Android', 'Safari en iPhone', 'Firefox en Windows', 'Navegador' when nothing is recognised. */
export function browserLabel(userAgent: string | undefined | null): string {
  const ua = (userAgent ?? '').slice(0, 512);
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? UNKNOWN_BROWSER;
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  return system ? `${browser} en ${system}` : browser;
}

/**
 * A stored picture URL as it may be presented: a path of this site (`/media/…`, one leading
 * slash) or an absolute http(s) URL, else null. The API refuses anything else when a URL is
 * written (profileRules.imageUrlProblem, the catalogue's photo rule); this is the second check,
 * when a URL is shown, so that a row written some other way (an old import, a hand edit, a future
 * bug) can never put a javascript:, data: or vbscript: URL, or a protocol-relative one, in a page.
 * Callers show their fallback (initials, gradient, default image) for null.
 */
export function presentableImageUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const raw = value.trim();
  // Control characters, spaces and backslashes: browsers strip or rewrite them while parsing.
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses or strips
  if (raw === '' || raw.length > 4096 || /[\u0000-\u0020\u007f-\u009f\\]/.test(raw)) return null;
  if (raw.startsWith('/')) return raw.startsWith('//') ? null : raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '' || url.username !== '' || url.password !== '') return null;
  return raw;
}

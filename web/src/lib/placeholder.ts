import { thumbHashToDataURL } from 'thumbhash';

const cache = new Map<string, string | null>();

/** The data: URL of a base64 ThumbHash (the blurred preview shown until the thumbnail loads); null if unreadable. */
export function placeholderUrl(base64: string | null): string | null {
  if (!base64) return null;
  const known = cache.get(base64);
  if (known !== undefined) return known;
  let url: string | null;
  try {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    url = thumbHashToDataURL(bytes);
  } catch {
    url = null;
  }
  if (cache.size > 500) cache.clear();
  cache.set(base64, url);
  return url;
}

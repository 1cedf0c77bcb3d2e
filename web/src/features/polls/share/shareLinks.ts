import type { SharePlatform } from '@tribuna/contracts/api/shares';

/** The link that opens the home page on this poll. */
export function pollShareLink(pollId: string, origin: string = window.location.origin): string {
  return `${origin}/?encuesta=${encodeURIComponent(pollId)}`;
}

export const shareText = (title: string) => `¡Vota en Tribuna! ${title}`;

export type LinkPlatform = Exclude<SharePlatform, 'native' | 'copy'>;

/** Each network's share page for `link` with `text`. */
export function platformShareUrl(platform: LinkPlatform, link: string, text: string): string {
  const enc = encodeURIComponent;
  switch (platform) {
    case 'whatsapp':
      return `https://wa.me/?text=${enc(`${text} ${link}`)}`;
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${enc(link)}`;
    case 'x':
      return `https://x.com/intent/tweet?text=${enc(text)}&url=${enc(link)}`;
    case 'telegram':
      return `https://t.me/share/url?url=${enc(link)}&text=${enc(text)}`;
  }
}

/** Copies text; falls back to a hidden textarea where the Clipboard API is missing (http, old browsers). */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // permission refused: try the old way
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    if (!document.execCommand?.('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

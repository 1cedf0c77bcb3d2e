import type { PageViewInput } from '@tribuna/contracts/api/pageViews';

export const SESSION_ID_KEY = 'tribuna-session-id';
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Kept for the page's lifetime when storage is refused (private browsing). */
let memorySessionId: string | null = null;

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replaceAll('-', '');
  // randomUUID needs a secure context; getRandomValues does not.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A random visitor id, created once and kept in localStorage under 'tribuna-session-id'. */
export function getSessionId(): string {
  try {
    const stored = localStorage.getItem(SESSION_ID_KEY);
    if (stored && SESSION_ID_PATTERN.test(stored)) return stored;
    const id = randomId();
    localStorage.setItem(SESSION_ID_KEY, id);
    return id;
  } catch {
    memorySessionId ??= randomId();
    return memorySessionId;
  }
}

const MOBILE_USER_AGENT = /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i;

/** 'mobile' below the md breakpoint (768 px) or on a mobile browser; otherwise 'desktop'. */
export function detectDeviceType(): PageViewInput['deviceType'] {
  const narrow = typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 767px)').matches;
  return narrow || MOBILE_USER_AGENT.test(navigator.userAgent) ? 'mobile' : 'desktop';
}

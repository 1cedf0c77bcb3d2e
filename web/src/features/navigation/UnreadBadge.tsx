import { badgeText, unreadSuffix } from '../notifications/unreadStore';

/**
 * The unread count on the bell: nothing at 0, '9+' above 9. Hidden from screen readers: the link's
 * name says it instead (UnreadText).
 */
export function UnreadBadge({ count, className = '' }: { count: number; className?: string }) {
  const text = badgeText(count);
  if (text === null) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="unread-badge"
      className={`pointer-events-none absolute inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-600 px-1 text-[10px] leading-none font-bold text-white tabular-nums ring-2 ring-white dark:ring-ink-950 ${className}`}
    >
      {text}
    </span>
  );
}

/**
 * After the link's visible label, for screen readers only: its name becomes 'Notificaciones, 3 sin
 * leer' (the visible label stays the start of the name, as voice control expects).
 */
export function UnreadText({ count }: { count: number }) {
  if (count <= 0) return null;
  return <span className="sr-only">{unreadSuffix(count)}</span>;
}

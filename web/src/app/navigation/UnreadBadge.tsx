import { badgeText } from '../../features/notifications/unreadStore';

/**
 * The unread count on the bell: nothing at 0, '9+' above 9. Hidden from screen readers: the link's
 * name says it instead (aria-label 'Notificaciones, 3 sin leer', starting with the visible label
 * as voice control expects).
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

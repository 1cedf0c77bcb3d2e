import type { Role } from '@tribuna/contracts/roles';

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', moderator: 'Moderador', user: 'Usuario' };

const ROLE_STYLES: Record<Role, string> = {
  admin: 'bg-fuchsia-600/10 text-fuchsia-700 ring-fuchsia-600/25 dark:bg-fuchsia-400/15 dark:text-fuchsia-300 dark:ring-fuchsia-400/30',
  moderator: 'bg-sky-600/10 text-sky-700 ring-sky-600/25 dark:bg-sky-400/15 dark:text-sky-300 dark:ring-sky-400/30',
  user: 'bg-slate-500/10 text-slate-600 ring-slate-500/25 dark:bg-white/10 dark:text-slate-300 dark:ring-white/15',
};

/** A user's role as a small pill: Admin, Moderador or Usuario. */
export function RoleBadge({ role }: { role: Role }) {
  return (
    <span className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-[11px] font-bold ring-1 ${ROLE_STYLES[role]}`}>{ROLE_LABELS[role]}</span>
  );
}

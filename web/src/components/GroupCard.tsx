import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { GROUP_PRIVACY_LABELS, GROUP_ROLE_LABELS, type GroupPrivacy, type GroupRole } from '@tribuna/contracts/groupRules';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';
import { initialOf } from './Avatar';
import { badgeClass } from './ListStates';

/** What a group's card shows (the directory's GroupCard and the profile's ProfileGroup both have it). */
export interface GroupCardData {
  id: string;
  name: string;
  description: string | null;
  avatarUrl: string | null;
  coverUrl: string | null;
  privacy: GroupPrivacy;
}

export const groupHref = (groupId: string) => `/grupos/${groupId}`;

/** 'Público' / 'Privado', the same badge on every card and on the group's page. */
export function PrivacyBadge({ privacy }: { privacy: GroupPrivacy }) {
  return <span className={`${badgeClass} bg-slate-100 text-slate-700 dark:bg-white/10 dark:text-slate-300`}>{GROUP_PRIVACY_LABELS[privacy]}</span>;
}

const ROLE_STYLES: Record<GroupRole, string> = {
  admin: 'bg-fuchsia-100 text-fuchsia-800 dark:bg-fuchsia-400/15 dark:text-fuchsia-300',
  moderator: 'bg-sky-100 text-sky-800 dark:bg-sky-400/15 dark:text-sky-300',
  member: 'bg-slate-100 text-slate-700 dark:bg-white/10 dark:text-slate-300',
};

/** 'Admin' / 'Moderador' / 'Miembro' (the profile's Grupos tab, a group's members). */
export function RoleBadge({ role }: { role: GroupRole }) {
  return <span className={`${badgeClass} ${ROLE_STYLES[role]}`}>{GROUP_ROLE_LABELS[role]}</span>;
}

/** A group's cover (3:1), or the brand gradient without one. Decorative. */
export function GroupCover({ url, className = '' }: { url: string | null; className?: string }) {
  const src = presentableImageUrl(url);
  return (
    <div className={`aspect-[3/1] w-full ${className}`}>
      {src ? (
        <img src={src} alt="" loading="lazy" className="size-full bg-slate-200 object-cover dark:bg-ink-800" />
      ) : (
        <div aria-hidden="true" className="brand-gradient size-full opacity-80" />
      )}
    </div>
  );
}

const AVATAR_SIZES = { md: 'size-14 text-2xl', lg: 'size-20 text-3xl sm:size-24' } as const;

/** A group's square avatar with a ring that cuts into the cover, or its initial. Decorative: the name is beside it. */
export function GroupAvatar({ name, url, size = 'md' }: { name: string; url: string | null; size?: keyof typeof AVATAR_SIZES }) {
  const src = presentableImageUrl(url);
  const base = `${AVATAR_SIZES[size]} rounded-2xl ring-4 ring-white dark:ring-ink-900`;
  if (src) return <img src={src} alt="" loading="lazy" className={`${base} bg-slate-200 object-cover dark:bg-ink-800`} />;
  return (
    <span aria-hidden="true" className={`${base} brand-gradient inline-flex items-center justify-center font-black text-white`}>
      {initialOf(name)}
    </span>
  );
}

interface GroupCardProps {
  group: GroupCardData;
  /** Badges after the privacy one (the profile's role). */
  badges?: ReactNode;
  /** A last line (member count, 'Miembro desde'). */
  footer?: ReactNode;
}

/**
 * A group's card (the directory, the profile's Grupos tab): cover, avatar, name linking to the
 * group's page (the whole card is the link's target area), description, privacy badge.
 */
export function GroupCard({ group, badges, footer }: GroupCardProps) {
  return (
    <li className="relative overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200/70 transition focus-within:ring-2 focus-within:ring-fuchsia-500 hover:shadow-md dark:bg-ink-900 dark:ring-white/10">
      <article aria-label={group.name}>
        <GroupCover url={group.coverUrl} />
        <div className="px-4 pb-4">
          <div className="relative -mt-7 mb-2">
            <GroupAvatar name={group.name} url={group.avatarUrl} />
          </div>
          <h3 className="truncate font-bold">
            <Link to={groupHref(group.id)} className="outline-none after:absolute after:inset-0 hover:underline">
              {group.name}
            </Link>
          </h3>
          {group.description && <p className="mt-1 line-clamp-2 text-sm text-slate-600 dark:text-slate-400">{group.description}</p>}
          <p className="mt-3 flex flex-wrap gap-1.5">
            {badges}
            <PrivacyBadge privacy={group.privacy} />
          </p>
          {footer && <div className="mt-2 text-xs text-slate-500 dark:text-slate-400">{footer}</div>}
        </div>
      </article>
    </li>
  );
}

/** Card-shaped grey placeholders while a list of groups loads. */
export function GroupCardSkeletons({ count = 4, label }: { count?: number; label: string }) {
  const pulse = 'rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10';
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        {label}
      </p>
      <div aria-hidden="true" className="grid gap-4 sm:grid-cols-2">
        {Array.from({ length: count }, (_, i) => (
          <div key={i} className="overflow-hidden rounded-3xl bg-white ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
            <div className="aspect-[3/1] w-full bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
            <div className="space-y-2 px-4 pt-3 pb-4">
              <div className={`h-3.5 w-1/2 ${pulse}`} />
              <div className={`h-2.5 w-3/4 ${pulse}`} />
              <div className={`h-2.5 w-1/4 ${pulse}`} />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

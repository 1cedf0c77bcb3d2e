import type { ProfileStats, PublicProfile } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { ActionMenu } from '../../components/ActionMenu';
import { initialOf } from '../../components/Avatar';
import { displayNameOf } from '../../lib/displayName';
import type { FollowListKind } from './api';
import { FollowButton, SignInToFollow, type FollowState } from './FollowButton';
import { FOLLOW_LIST_TITLES } from './FollowListDialog';
import { memberSinceText } from './format';
import { CalendarIcon, PencilIcon, TrashIcon } from './icons';
import { useProfileSafety, type SafetyPatch } from './ProfileSafety';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';

export const profileName = (profile: PublicProfile) => (profile.isDeleted ? PROFILE_MESSAGES.deletedName : displayNameOf(profile));

const COUNTERS: ReadonlyArray<{ key: keyof ProfileStats; label: string }> = [
  { key: 'votes', label: 'Votaciones' },
  { key: 'posts', label: 'Posts' },
  { key: 'comments', label: 'Comentarios' },
];

const numberFormat = new Intl.NumberFormat('es-MX');

interface ProfileHeaderProps {
  profile: PublicProfile;
  stats: ProfileStats;
  own: boolean;
  /** Somebody is signed in (a visitor is offered to sign in instead of 'Seguir'). */
  signedIn: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onFollowChange: (next: FollowState) => void;
  onOpenFollows: (kind: FollowListKind) => void;
  /** Muting or blocking from the profile's menu changed the viewer's relation to it. */
  onSafetyChange: (patch: SafetyPatch) => void;
}

/**
 * Banner, avatar, name, @username, bio, 'Miembro desde', 'Seguidores' and 'Siguiendo' (each opens
 * its list), the counters, and the actions: edit and delete on the own profile, 'Seguir' on others'.
 */
export function ProfileHeader({ profile, stats, own, signedIn, onEdit, onDelete, onFollowChange, onOpenFollows, onSafetyChange }: ProfileHeaderProps) {
  const name = profileName(profile);
  const safety = useProfileSafety(profile, name, signedIn, onSafetyChange);
  const others = !own && !profile.isDeleted;
  const bannerUrl = presentableImageUrl(profile.bannerUrl);
  const avatarUrl = presentableImageUrl(profile.avatarUrl);
  return (
    <section
      aria-labelledby="profile-name"
      className="overflow-hidden bg-white shadow-sm ring-1 ring-slate-200/70 sm:rounded-3xl dark:bg-ink-900 dark:ring-white/10"
    >
      <div className="aspect-[3/1] w-full">
        {bannerUrl ? (
          <img src={bannerUrl} alt="" className="size-full bg-slate-200 object-cover dark:bg-ink-800" />
        ) : (
          <div aria-hidden="true" data-testid="profile-banner-gradient" className="brand-gradient size-full" />
        )}
      </div>
      <div className="px-4 pb-5 sm:px-6">
        <div className="flex items-end justify-between gap-3">
          <div className="-mt-12 shrink-0 sm:-mt-16">
            {avatarUrl ? (
              <img
                src={avatarUrl}
                alt=""
                className="size-24 rounded-full bg-slate-200 object-cover ring-4 ring-white sm:size-32 dark:bg-ink-800 dark:ring-ink-900"
              />
            ) : (
              <span
                aria-hidden="true"
                className="brand-gradient inline-flex size-24 items-center justify-center rounded-full text-4xl font-black text-white ring-4 ring-white sm:size-32 sm:text-5xl dark:ring-ink-900"
              >
                {initialOf(name)}
              </span>
            )}
          </div>
          {own && (
            <div className="flex items-center gap-2 pt-3">
              <button
                type="button"
                onClick={onEdit}
                className="inline-flex min-h-10 items-center gap-2 rounded-full px-4 text-sm font-bold text-slate-800 ring-1 ring-slate-300 transition hover:bg-slate-100 dark:text-slate-100 dark:ring-white/20 dark:hover:bg-white/10"
              >
                <PencilIcon className="size-4" />
                Editar Perfil
              </button>
              <button
                type="button"
                onClick={onDelete}
                aria-label="Eliminar cuenta"
                title="Eliminar cuenta"
                className="inline-flex size-10 items-center justify-center rounded-full text-rose-600 ring-1 ring-rose-300 transition hover:bg-rose-50 dark:text-rose-400 dark:ring-rose-500/40 dark:hover:bg-rose-500/10"
              >
                <TrashIcon className="size-5" />
              </button>
            </div>
          )}
          {others && (
            <div className="flex items-start gap-1 pt-3">
              {/* A blocked fan cannot be followed: 'Desbloquear' in the menu comes first. */}
              {!signedIn ? (
                <SignInToFollow />
              ) : (
                !profile.viewerBlocked && (
                  <FollowButton
                    userId={profile.id}
                    name={name}
                    state={{ following: profile.viewerFollows, followersCount: profile.followersCount }}
                    onChange={onFollowChange}
                  />
                )
              )}
              {safety.items.length > 0 && <ActionMenu label={SAFETY_UI.profileMenu} items={safety.items} />}
            </div>
          )}
        </div>

        <h1 id="profile-name" className="mt-3 text-2xl font-black tracking-tight break-words">
          {name}
        </h1>
        {profile.username && !profile.isDeleted && <p className="text-slate-500 dark:text-slate-400">@{profile.username}</p>}
        {profile.bio && !profile.isDeleted && <p className="mt-3 break-words whitespace-pre-wrap">{profile.bio}</p>}
        {others && safety.notice}
        <p className="mt-3 flex items-center gap-1.5 text-sm text-slate-500 dark:text-slate-400">
          <CalendarIcon className="size-4" />
          {memberSinceText(profile.createdAt)}
        </p>
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {(['followers', 'following'] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              onClick={() => onOpenFollows(kind)}
              aria-haspopup="dialog"
              className="-mx-1 rounded px-1 text-slate-600 hover:underline dark:text-slate-300"
            >
              <strong className="font-black text-slate-900 tabular-nums dark:text-white">
                {numberFormat.format(kind === 'followers' ? profile.followersCount : profile.followingCount)}
              </strong>{' '}
              {FOLLOW_LIST_TITLES[kind]}
            </button>
          ))}
        </p>

        <dl className="mt-4 grid grid-cols-3 gap-2 border-t border-slate-200 pt-4 text-center dark:border-white/10">
          {COUNTERS.map(({ key, label }) => (
            <div key={key} className="flex flex-col-reverse">
              <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{label}</dt>
              <dd className="text-xl font-black tabular-nums">{numberFormat.format(stats[key])}</dd>
            </div>
          ))}
        </dl>
      </div>
      {safety.dialog}
    </section>
  );
}

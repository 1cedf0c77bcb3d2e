import { useState, type ComponentType } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import type { Profile } from '@tribuna/contracts/api/me';
import type { ProfileStats, PublicProfile } from '@tribuna/contracts/api/profiles';
import { SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { PUSH_TEXTS } from '@tribuna/contracts/pushRules';
import { Alert } from '../../components/Alert';
import { PageSpinner } from '../../components/Spinner';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useQuery } from '../../lib/useQuery';
import { useSessionStore } from '../../lib/session/sessionStore';
import { fetchProfile, fetchProfileStats, type FollowListKind } from './api';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { EditProfileDialog } from './EditProfileDialog';
import type { FollowState } from './FollowButton';
import { FollowListDialog } from './FollowListDialog';
import { ProfileHeader, profileName } from './ProfileHeader';
import type { SafetyPatch } from './ProfileSafety';
import { ProfileTabs, type TabPanelProps } from './ProfileTabs';

const ZERO_STATS: ProfileStats = { votes: 0, posts: 0, comments: 0 };

/** The public part of what PATCH /api/me answered. */
const toPublic = (profile: Profile, previous: PublicProfile): PublicProfile => ({
  ...previous,
  displayName: profile.displayName,
  username: profile.username,
  bio: profile.bio,
  avatarUrl: profile.avatarUrl,
  bannerUrl: profile.bannerUrl,
});

/** A bad id (400) is as missing as an unknown one (404). */
const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

/** What other features show in the profile; app/ProfileRoute.tsx passes them (features never import each other). */
export interface ProfileParts {
  /** The Posts tab: the wall's feed of this user. */
  PostsPanel: ComponentType<TabPanelProps>;
  /** The own profile's security settings: the sign-in's two-factor card. */
  SecuritySettings: ComponentType;
  /** The own profile's safety settings: the people one muted and blocked. */
  SafetySettings: ComponentType;
  /** The own profile's web push settings: this device, the fan's devices and the kinds to be told of. */
  PushSettings: ComponentType;
}

/**
 * /perfil (own; the route guard sends visitors to /login) and /perfil/:userId (anybody's; one's own
 * id counts as the own profile).
 */
export function ProfilePage(parts: ProfileParts) {
  const { userId: routeId } = useParams();
  const viewer = useSessionStore((state) => state.user);
  const userId = routeId ?? viewer?.id;
  if (!userId) return <Navigate to="/login" replace />;
  const own = viewer !== null && viewer.id.toLowerCase() === userId.toLowerCase();
  return <ProfileView key={userId} userId={userId} own={own} signedIn={viewer !== null} parts={parts} />;
}

function NotFound() {
  return (
    <div className="mx-auto flex min-h-[60dvh] max-w-md flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-black">{PROFILE_MESSAGES.notFound}</h1>
      <Link to="/" className="brand-gradient rounded-full px-5 py-2.5 text-sm font-bold text-white shadow-lg shadow-fuchsia-600/25 hover:opacity-90">
        {PROFILE_MESSAGES.backHome}
      </Link>
    </div>
  );
}

interface ProfileViewProps {
  userId: string;
  own: boolean;
  signedIn: boolean;
  parts: ProfileParts;
}

function ProfileView({ userId, own, signedIn, parts: { PostsPanel, SecuritySettings, SafetySettings, PushSettings } }: ProfileViewProps) {
  const profile = useQuery(['profile', userId], (signal) => fetchProfile(userId, signal), {
    onError: (error) => console.debug('Error al cargar el perfil', error),
  });
  const stats = useQuery(['profile-stats', userId], (signal) => fetchProfileStats(userId, signal), {
    onError: (error) => console.debug('Error al cargar las estadísticas del perfil', error),
  });
  const [dialog, setDialog] = useState<'edit' | 'delete' | FollowListKind | null>(null);
  // Bumped after an edit: the tabs load again (the posts show the new name and avatar).
  const [version, setVersion] = useState(0);
  useDocumentTitle(profile.status === 'ready' ? profileName(profile.data) : 'Perfil');

  if (profile.status === 'error') {
    if (isMissing(profile.error)) return <NotFound />;
    return (
      <div className="mx-auto max-w-2xl px-3 pt-6 sm:px-4">
        <h1 className="sr-only">Perfil</h1>
        <Alert>
          <p>No se pudo cargar el perfil.</p>
          <button type="button" onClick={profile.refetch} className="mt-2 rounded-full bg-rose-600 px-4 py-1.5 text-sm font-bold text-white hover:bg-rose-700">
            Reintentar
          </button>
        </Alert>
      </div>
    );
  }

  if (profile.status !== 'ready') return <PageSpinner label="Cargando perfil…" />;
  const data = profile.data;

  function onSaved(saved: Profile) {
    profile.setData((current) => toPublic(saved, current));
    setVersion((n) => n + 1);
  }

  function onFollowChange(next: FollowState) {
    profile.setData((current) => ({ ...current, viewerFollows: next.following, followersCount: next.followersCount ?? current.followersCount }));
  }

  /** Muting or blocking; a block or unblock reads the tabs again (the person's posts and comments leave or come back). */
  function onSafetyChange(patch: SafetyPatch) {
    profile.setData((current) => ({ ...current, ...patch }));
    if (patch.viewerBlocked !== undefined) setVersion((n) => n + 1);
  }

  /** On the own profile, following someone from a list changes its 'Siguiendo'. */
  function onViewerFollowChange(delta: 1 | -1) {
    if (own) profile.setData((current) => ({ ...current, followingCount: Math.max(0, current.followingCount + delta) }));
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6 pb-24 sm:px-4 sm:pt-6 md:pb-12">
      <ProfileHeader
        profile={data}
        stats={stats.status === 'ready' ? stats.data : ZERO_STATS}
        own={own}
        signedIn={signedIn}
        onEdit={() => setDialog('edit')}
        onDelete={() => setDialog('delete')}
        onFollowChange={onFollowChange}
        onOpenFollows={setDialog}
        onSafetyChange={onSafetyChange}
      />

      <div className="px-3 sm:px-0">
        <ProfileTabs key={version} userId={userId} own={own} PostsPanel={PostsPanel} />
      </div>

      {own && (
        <section aria-labelledby="settings-title" className="space-y-3 px-3 sm:px-0">
          <h2 id="settings-title" className="text-lg font-black">
            Configuración
          </h2>
          <h3 className="text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Seguridad</h3>
          <SecuritySettings />
          <h3 className="pt-3 text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{SAFETY_UI.settingsTitle}</h3>
          <SafetySettings />
          <h3 className="pt-3 text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{PUSH_TEXTS.settingsTitle}</h3>
          <PushSettings />
        </section>
      )}

      {dialog === 'edit' && <EditProfileDialog profile={data} onClose={() => setDialog(null)} onSaved={onSaved} />}
      {dialog === 'delete' && <DeleteAccountDialog onClose={() => setDialog(null)} />}
      {(dialog === 'followers' || dialog === 'following') && (
        <FollowListDialog kind={dialog} userId={userId} own={own} onClose={() => setDialog(null)} onViewerFollowChange={onViewerFollowChange} />
      )}
    </div>
  );
}

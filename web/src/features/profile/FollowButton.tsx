import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../lib/api';
import { setFollowing } from './api';

/** Whether the viewer follows a profile and, where it is shown, how many followers it has. */
export interface FollowState {
  following: boolean;
  followersCount?: number;
}

export const FOLLOW_FAILED = 'No se pudo actualizar el seguimiento';

/**
 * 'Seguir' / 'Siguiendo' without waiting: `onChange` gets the expected state at once, then the
 * server's answer, or the state before when the call fails (with the error to show). A click while
 * a call runs is ignored, so answers cannot cross.
 */
export function useFollowToggle(userId: string, current: FollowState, onChange: (next: FollowState) => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  async function toggle() {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    setError(null);
    const before = current;
    const follow = !before.following;
    const count = before.followersCount;
    onChange({ following: follow, followersCount: count === undefined ? undefined : Math.max(0, count + (follow ? 1 : -1)) });
    try {
      const after = await setFollowing(userId, follow);
      onChange({ following: after.following, followersCount: count === undefined ? undefined : after.followersCount });
    } catch (failure) {
      console.debug(FOLLOW_FAILED, failure);
      onChange(before);
      setError(errorMessage(failure, FOLLOW_FAILED));
    } finally {
      busy.current = false;
      setPending(false);
    }
  }

  return { pending, error, toggle };
}

interface FollowButtonProps {
  userId: string;
  /** Whose profile it is, for screen readers ('Seguir a Ana'). */
  name: string;
  state: FollowState;
  onChange: (next: FollowState) => void;
  size?: 'md' | 'sm';
}

const SIZES = { md: 'min-h-10 px-5 text-sm', sm: 'min-h-8 px-3.5 text-xs' } as const;

/**
 * The follow toggle of another fan's profile or list row (aria-pressed says whether the viewer
 * follows them); a failed change rolls back and says why beneath.
 */
export function FollowButton({ userId, name, state, onChange, size = 'md' }: FollowButtonProps) {
  const { pending, error, toggle } = useFollowToggle(userId, state, onChange);
  const following = state.following;
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <button
        type="button"
        aria-pressed={following}
        aria-busy={pending || undefined}
        title={following ? `Dejar de seguir a ${name}` : `Seguir a ${name}`}
        onClick={() => void toggle()}
        className={`inline-flex items-center justify-center rounded-full font-bold transition ${SIZES[size]} ${
          following
            ? 'text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100 dark:text-slate-100 dark:ring-white/20 dark:hover:bg-white/10'
            : 'bg-fuchsia-600 text-white hover:bg-fuchsia-700'
        }`}
      >
        {following ? 'Siguiendo' : 'Seguir'}
      </button>
      {error && (
        <span role="alert" className="max-w-48 text-right text-xs font-medium text-rose-600 dark:text-rose-400">
          {error}
        </span>
      )}
    </span>
  );
}

/** What a visitor sees in the follow button's place. */
export function SignInToFollow() {
  return (
    <Link
      to="/login"
      className="inline-flex min-h-10 items-center rounded-full bg-fuchsia-600 px-4 text-sm font-bold text-white transition hover:bg-fuchsia-700"
    >
      Inicia sesión para seguir
    </Link>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AuthorView } from '@tribuna/contracts/api/wall';
import { displayNameOf } from '../lib/displayName';
import { Avatar } from './Avatar';

/**
 * One person in a list (followers, following, muted, blocked): avatar and name linking to the
 * profile, the @username under the name, and what may be done with them (`children`) on the right.
 */
export function PersonRow({ user, children }: { user: AuthorView; children?: ReactNode }) {
  const name = displayNameOf(user);
  const profile = `/perfil/${user.id}`;
  return (
    <li className="flex items-center gap-3">
      <Link to={profile} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
        <Avatar name={name} src={user.avatarUrl} />
      </Link>
      <div className="min-w-0 flex-1">
        <Link to={profile} className="block truncate rounded font-bold hover:underline">
          {name}
        </Link>
        {user.username && <p className="truncate text-sm text-slate-500 dark:text-slate-400">@{user.username}</p>}
      </div>
      {children}
    </li>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AuthSession, DevUserList } from '@tribuna/contracts/api/auth';
import { Alert } from '../../components/Alert';
import { Avatar } from '../../components/Avatar';
import { CodeIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/api';
import { useQuery } from '../../lib/useQuery';
import { devLogin, fetchDevUsers } from './api';
import { displayNameOf } from '../../lib/displayName';
import { homeFor } from './homeFor';
import { RoleBadge } from './RoleBadge';
import { useSessionStore } from '../../lib/session/sessionStore';

type DevUser = DevUserList['users'][number];
type UsersState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; users: DevUser[] };

const NAME_MAX = 50;
const LOGIN_FAILED = 'Error al iniciar sesión';

/** Demo users to act as: the server only answers while DEV_LOGIN is on. */
function useDevUsers(): UsersState {
  const query = useQuery(['dev-users'], (signal) => fetchDevUsers(signal), {
    onError: (error) => console.error('No se pudieron cargar los usuarios de prueba', error),
  });
  if (query.status === 'ready') return { status: 'ready', users: query.data.users };
  return query.status === 'error' ? { status: 'error' } : { status: 'loading' };
}

// The button's name is its visible text ("Entrar como" is only for screen readers), so what a
// sighted voice-control user reads is what they can say (WCAG 2.5.3, label in name).
function DevUserButton({ user, disabled, busy, onSelect }: { user: DevUser; disabled: boolean; busy: boolean; onSelect: () => void }) {
  const name = displayNameOf(user);
  return (
    <button
      type="button"
      onClick={onSelect}
      disabled={disabled}
      className="flex w-full items-center gap-3 rounded-2xl bg-white px-3 py-2.5 text-left ring-1 ring-slate-200 transition hover:ring-fuchsia-400 disabled:opacity-60 dark:bg-ink-900 dark:ring-white/10 dark:hover:ring-fuchsia-400/60"
    >
      <Avatar name={name} src={user.avatarUrl} />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-semibold">
          <span className="sr-only">Entrar como</span> {name}
        </span>
        <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{user.username ? `@${user.username}` : 'sin usuario'}</span>
      </span>
      <RoleBadge role={user.role} />
      <span className="text-xs font-bold text-fuchsia-700 dark:text-fuchsia-400">{busy ? 'Entrando…' : 'Entrar'}</span>
    </button>
  );
}

/**
 * The development-only sign-in of the login page: act as a demo user or create a test one.
 * On success it goes where a real sign-in would: by role, or to /auth/callback for the code.
 */
export function DevLoginSection() {
  const navigate = useNavigate();
  const setFromAuthSession = useSessionStore((state) => state.setFromAuthSession);
  const usersState = useDevUsers();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const nameId = useId();
  const nameHintId = useId();
  const nameErrorId = useId();

  async function signIn(input: { userId: string } | { displayName: string }, key: string) {
    setPending(key);
    setError(null);
    try {
      const session: AuthSession = await devLogin(input);
      setFromAuthSession(session);
      if (session.status === 'signed_in' && session.user) navigate(homeFor(session.user), { replace: true });
      else if (session.status === 'mfa_required') navigate('/auth/callback');
      else setError(LOGIN_FAILED);
    } catch (failure) {
      console.error(LOGIN_FAILED, failure);
      setError(errorMessage(failure, LOGIN_FAILED));
    } finally {
      setPending(null);
    }
  }

  function createUser(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const displayName = name.trim();
    if (!displayName) return setNameError('El nombre no puede estar vacío');
    if (displayName.length > NAME_MAX) return setNameError(`El nombre no puede exceder ${NAME_MAX} caracteres`);
    setNameError(null);
    void signIn({ displayName }, 'new');
  }

  return (
    <section
      aria-labelledby="dev-login-title"
      className="mt-6 rounded-3xl border-2 border-dashed border-amber-400/70 bg-amber-50/70 p-5 sm:p-6 dark:border-amber-400/40 dark:bg-amber-400/5"
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <CodeIcon className="size-5 text-amber-600 dark:text-amber-400" />
        <h2 id="dev-login-title" className="text-lg font-bold">
          Acceso de desarrollo
        </h2>
        <span className="sm:ml-auto rounded-full bg-amber-400/20 px-2 py-0.5 text-[11px] font-bold tracking-wide text-amber-800 uppercase dark:text-amber-300">
          Solo pruebas
        </span>
      </div>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Disponible porque el servidor corre con DEV_LOGIN. Entra sin Google con un usuario de demostración.
      </p>

      {error && (
        <Alert tone="error" className="mt-4">
          {error}
        </Alert>
      )}

      <div className="mt-4">
        {usersState.status === 'loading' && <Spinner label="Cargando usuarios de prueba…" className="py-4" />}
        {usersState.status === 'error' && <p className="text-sm text-rose-700 dark:text-rose-300">No se pudieron cargar los usuarios de prueba.</p>}
        {usersState.status === 'ready' &&
          (usersState.users.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No hay usuarios de demostración. Crea uno abajo.</p>
          ) : (
            <ul aria-label="Usuarios de demostración" className="space-y-2">
              {usersState.users.map((user) => (
                <li key={user.id}>
                  <DevUserButton
                    user={user}
                    disabled={pending !== null}
                    busy={pending === user.id}
                    onSelect={() => void signIn({ userId: user.id }, user.id)}
                  />
                </li>
              ))}
            </ul>
          ))}
      </div>

      <form noValidate onSubmit={createUser} className="mt-5 border-t border-amber-400/30 pt-4">
        <h3 className="text-sm font-bold">Crear usuario de prueba</h3>
        <div className="mt-3 flex items-baseline justify-between">
          <label htmlFor={nameId} className="text-sm font-semibold">
            Nombre
          </label>
          <span id={nameHintId} className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
            {name.length}/{NAME_MAX}
          </span>
        </div>
        <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
          <input
            id={nameId}
            name="displayName"
            type="text"
            autoComplete="off"
            maxLength={NAME_MAX}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${nameHintId} ${nameErrorId}` : nameHintId}
            placeholder="Ej. Fan de prueba"
            className="min-w-0 flex-1 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm focus:border-fuchsia-500 focus:outline-none aria-invalid:border-rose-500 dark:border-white/15 dark:bg-ink-950"
          />
          <button
            type="submit"
            disabled={pending !== null}
            className="rounded-full bg-slate-900 px-4 py-2 text-sm font-bold text-white transition hover:bg-slate-700 disabled:opacity-60 dark:bg-white dark:text-ink-950 dark:hover:bg-slate-200"
          >
            {pending === 'new' ? 'Creando…' : 'Crear y entrar'}
          </button>
        </div>
        {nameError && (
          <p id={nameErrorId} role="alert" className="mt-2 text-sm font-medium text-rose-700 dark:text-rose-300">
            {nameError}
          </p>
        )}
      </form>
    </section>
  );
}

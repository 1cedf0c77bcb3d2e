import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { DELETE_CONFIRMATION_WORD, PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { Alert } from '../../components/Alert';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/api';
import { useSessionStore } from '../../lib/session/sessionStore';
import { deleteAccount } from './api';
import { WarningIcon } from './icons';

const CONSEQUENCES = [
  'Tu perfil será anonimizado: tu nombre, usuario, foto, banner y biografía desaparecerán.',
  'Perderás el acceso a tu cuenta y se cerrará tu sesión en todos tus dispositivos.',
  'Se eliminarán tus puntos y tus datos personales.',
  'Tus publicaciones y comentarios permanecerán, pero sin tu nombre.',
];

/**
 * Eliminar cuenta: the warnings, then typing ELIMINAR (uppercased as typed) enables the button. On
 * success the session is forgotten here (the server ended it everywhere) and the user lands on /.
 */
export function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const [confirm, setConfirm] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const clearLocally = useSessionStore((state) => state.clearLocally);
  const navigate = useNavigate();
  const inputId = useId();
  const matches = confirm === DELETE_CONFIRMATION_WORD;
  const deleted = useRef(false);

  // The session is forgotten once the page has left /perfil (this dialog unmounts with it): the
  // router commits navigations in a transition, so forgetting it first would let the protected
  // route's guard render /perfil signed out and send the user to /login instead of /.
  useEffect(
    () => () => {
      if (deleted.current) clearLocally();
    },
    [clearLocally],
  );

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (deleting) return;
    if (!matches) {
      setError(PROFILE_MESSAGES.deleteConfirm);
      return;
    }
    setDeleting(true);
    setError(null);
    try {
      await deleteAccount(confirm);
    } catch (failure) {
      console.debug(PROFILE_MESSAGES.deleteFailed, failure);
      setError(errorMessage(failure, PROFILE_MESSAGES.deleteFailed));
      setDeleting(false);
      return;
    }
    deleted.current = true;
    navigate('/', { replace: true });
  }

  return (
    <Modal title="Eliminar cuenta" onClose={() => (deleting ? undefined : onClose())}>
      <form onSubmit={onSubmit} noValidate aria-label="Eliminar cuenta" className="space-y-4">
        <div className="rounded-2xl border border-rose-300 bg-rose-50 p-4 text-sm text-rose-900 dark:border-rose-500/40 dark:bg-rose-500/10 dark:text-rose-100">
          <p className="flex items-center gap-2 font-bold">
            <WarningIcon className="size-5 shrink-0" />
            Esta acción no se puede deshacer.
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {CONSEQUENCES.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </div>

        <div className="space-y-1.5">
          <label htmlFor={inputId} className="block text-sm font-semibold">
            Escribe <strong className="font-black text-rose-600 dark:text-rose-400">{DELETE_CONFIRMATION_WORD}</strong> para confirmar
          </label>
          <input
            id={inputId}
            type="text"
            value={confirm}
            onChange={(e) => {
              setConfirm(e.target.value.toUpperCase());
              setError(null);
            }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            disabled={deleting}
            aria-invalid={error ? true : undefined}
            className="w-full rounded-2xl bg-slate-100 px-4 py-2.5 text-base tracking-widest uppercase focus:outline-none focus-visible:ring-2 focus-visible:ring-rose-500 disabled:opacity-60 dark:bg-white/5"
          />
        </div>

        {error && <Alert>{error}</Alert>}

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onClose}
            disabled={deleting}
            className="min-h-11 rounded-full px-5 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 disabled:opacity-60 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10"
          >
            Cancelar
          </button>
          <button
            type="submit"
            disabled={!matches || deleting}
            className="min-h-11 rounded-full bg-rose-600 px-5 text-sm font-bold text-white hover:bg-rose-700 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {deleting ? 'Eliminando...' : 'Eliminar Cuenta'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

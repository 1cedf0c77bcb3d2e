import { useCallback, useEffect, useRef, useState } from 'react';
import type { FactorEnrolment } from '@tribuna/contracts/api/auth';
import { Alert } from '../../components/Alert';
import { CopyIcon, ShieldIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/api';
import { enrolFactor, fetchFactors, unenrolFactor, verifyFactorCode } from './api';
import { useSessionStore } from '../../lib/session/sessionStore';
import { TotpCodeForm } from './TotpCodeForm';

type CardState =
  | { kind: 'loading' }
  | { kind: 'load_error' }
  | { kind: 'inactive' }
  | { kind: 'enrolling'; enrolment: FactorEnrolment }
  | { kind: 'active'; factorId: string }
  | { kind: 'disabling'; factorId: string };

const primaryButton =
  'brand-gradient rounded-full px-5 py-2.5 text-sm font-bold text-white shadow-lg shadow-fuchsia-600/25 transition hover:opacity-90 disabled:cursor-wait disabled:opacity-70';
const secondaryButton =
  'rounded-full px-5 py-2.5 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 transition hover:bg-slate-100 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10';

function StatusBadge({ active }: { active: boolean }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-bold ring-1 ${
        active
          ? 'bg-emerald-500/10 text-emerald-700 ring-emerald-500/30 dark:text-emerald-300'
          : 'bg-slate-500/10 text-slate-600 ring-slate-500/25 dark:text-slate-300'
      }`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${active ? 'bg-emerald-500' : 'bg-slate-400'}`} />
      {active ? 'Activada' : 'Desactivada'}
    </span>
  );
}

/** The manual-entry key, selectable in one tap and copyable with a button. */
function SecretKey({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch (error) {
      // Without clipboard access the key is still selectable by hand (select-all).
      console.debug('No se pudo copiar la clave', error);
    }
  }

  return (
    <div className="flex items-stretch gap-2">
      <code aria-label="Clave secreta" className="min-w-0 flex-1 rounded-xl bg-slate-100 px-3 py-2.5 font-mono text-sm break-all select-all dark:bg-ink-950">
        {secret}
      </code>
      <button type="button" onClick={() => void copy()} className={`${secondaryButton} inline-flex items-center gap-1.5 rounded-xl! px-3!`}>
        <CopyIcon className="size-4" />
        <span aria-live="polite">{copied ? 'Copiada' : 'Copiar'}</span>
      </button>
    </div>
  );
}

/**
 * The own profile's second factor: whether a verified TOTP factor exists, enrolling one
 * (QR code, manual key, a first code to confirm it) and removing it with a current code.
 */
export function TwoFactorCard() {
  const setFromAuthSession = useSessionStore((state) => state.setFromAuthSession);
  const [state, setState] = useState<CardState>({ kind: 'loading' });
  const [starting, setStarting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [focusHeading, setFocusHeading] = useState(false);

  const load = useCallback(async () => {
    setState({ kind: 'loading' });
    try {
      const { factors } = await fetchFactors();
      const verified = factors.find((factor) => factor.status === 'verified');
      setState(verified ? { kind: 'active', factorId: verified.id } : { kind: 'inactive' });
    } catch (error) {
      console.error('No se pudo cargar la verificación en dos pasos', error);
      setState({ kind: 'load_error' });
    }
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- reads the factors once the card is shown (load sets the loading state first)
    void load();
  }, [load]);

  // The button that was pressed disappears with each step: keep keyboard users in the card.
  useEffect(() => {
    if (!focusHeading) return;
    headingRef.current?.focus();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the request to move the focus is spent once the new step's heading is in the DOM
    setFocusHeading(false);
  }, [focusHeading]);

  function moveTo(next: CardState, message: string | null = null) {
    setState(next);
    setNotice(message);
    setActionError(null);
    // The code form of 'disabling' takes focus itself.
    setFocusHeading(next.kind !== 'disabling');
  }

  async function startEnrolment() {
    setStarting(true);
    setActionError(null);
    setNotice(null);
    try {
      moveTo({ kind: 'enrolling', enrolment: await enrolFactor() });
    } catch (error) {
      setActionError(errorMessage(error, 'No se pudo activar la verificación en dos pasos'));
    } finally {
      setStarting(false);
    }
  }

  async function confirmEnrolment(factorId: string, code: string) {
    const session = await verifyFactorCode(factorId, code);
    if (session.status === 'signed_in') setFromAuthSession(session);
    moveTo({ kind: 'active', factorId }, 'Listo: la verificación en dos pasos está activada.');
  }

  async function disable(factorId: string, code: string) {
    await unenrolFactor(factorId, code);
    moveTo({ kind: 'inactive' }, 'La verificación en dos pasos se desactivó.');
  }

  const active = state.kind === 'active' || state.kind === 'disabling';

  return (
    <section aria-labelledby="two-factor-title" className="rounded-3xl bg-white p-5 ring-1 ring-slate-200/70 sm:p-6 dark:bg-ink-900 dark:ring-white/10">
      <div className="flex items-start gap-3">
        <span className="brand-gradient inline-flex size-10 shrink-0 items-center justify-center rounded-xl text-white">
          <ShieldIcon className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1.5">
            <h3 id="two-factor-title" ref={headingRef} tabIndex={-1} className="font-bold outline-none">
              Verificación en dos pasos
            </h3>
            {state.kind !== 'loading' && state.kind !== 'load_error' && <StatusBadge active={active} />}
          </div>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Además de Google, pide un código de tu app de autenticación al iniciar sesión.</p>
        </div>
      </div>

      <div className="mt-5 space-y-4">
        {notice && <Alert tone="success">{notice}</Alert>}
        {actionError && <Alert tone="error">{actionError}</Alert>}

        {state.kind === 'loading' && <Spinner label="Cargando la verificación en dos pasos…" className="py-4" />}

        {state.kind === 'load_error' && (
          <Alert tone="error">
            <p>No se pudo cargar el estado de la verificación en dos pasos.</p>
            <button type="button" onClick={() => void load()} className="mt-2 font-bold underline">
              Reintentar
            </button>
          </Alert>
        )}

        {state.kind === 'inactive' && (
          <button type="button" onClick={() => void startEnrolment()} disabled={starting} className={primaryButton}>
            {starting ? 'Activando…' : 'Activar'}
          </button>
        )}

        {state.kind === 'enrolling' && (
          <ol className="space-y-5 text-sm">
            <li className="space-y-3">
              <p>
                <strong>1.</strong> Escanea este código QR con tu app de autenticación (Google Authenticator, Microsoft Authenticator, Authy…).
              </p>
              <img
                src={state.enrolment.qrCode}
                alt="Código QR para configurar la verificación en dos pasos"
                width={192}
                height={192}
                className="mx-auto size-48 rounded-2xl bg-white p-3 ring-1 ring-slate-200"
              />
            </li>
            <li className="space-y-2">
              <p>
                <strong>2.</strong> ¿No puedes escanearlo? Escribe esta clave en la app:
              </p>
              <SecretKey secret={state.enrolment.secret} />
            </li>
            <li className="space-y-2">
              <p>
                <strong>3.</strong> Confirma con el código de 6 dígitos que muestra la app.
              </p>
              <TotpCodeForm
                label="Código de la app"
                submitLabel="Confirmar y activar"
                busyLabel="Verificando…"
                errorFallback="No se pudo verificar el código"
                onSubmit={(code) => confirmEnrolment(state.enrolment.id, code)}
                onCancel={() => moveTo({ kind: 'inactive' })}
              />
            </li>
          </ol>
        )}

        {state.kind === 'active' && (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-600 dark:text-slate-300">Te pediremos un código cada vez que inicies sesión.</p>
            <button type="button" onClick={() => moveTo({ kind: 'disabling', factorId: state.factorId })} className={secondaryButton}>
              Desactivar
            </button>
          </div>
        )}

        {state.kind === 'disabling' && (
          <TotpCodeForm
            label="Código actual"
            hint="Para desactivarla, ingresa un código actual de tu app de autenticación."
            submitLabel="Desactivar"
            busyLabel="Desactivando…"
            errorFallback="No se pudo desactivar la verificación en dos pasos"
            onSubmit={(code) => disable(state.factorId, code)}
            onCancel={() => moveTo({ kind: 'active', factorId: state.factorId })}
            autoFocus
            danger
          />
        )}
      </div>
    </section>
  );
}

import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ShieldIcon } from '../../components/icons';
import { PageSpinner } from '../../components/Spinner';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { verifyFactorCode } from './api';
import { homeFor } from './homeFor';
import { fetchAuthSession, useSessionStore } from '../../lib/session/sessionStore';
import { TotpCodeForm } from './TotpCodeForm';
import { useSignOut } from '../../lib/session/useSignOut';

const LOGIN_FAILED = '/login?error=1';

/** The second step of a sign-in: a code from the user's authenticator app for `factorId`. */
function SecondFactorStep({ factorId }: { factorId: string }) {
  useDocumentTitle('Verificación en dos pasos');
  const navigate = useNavigate();
  const setFromAuthSession = useSessionStore((state) => state.setFromAuthSession);
  const signOut = useSignOut();

  async function verify(code: string) {
    const session = await verifyFactorCode(factorId, code);
    setFromAuthSession(session);
    if (session.status === 'signed_in' && session.user) navigate(homeFor(session.user), { replace: true });
    else if (session.status === 'signed_out') navigate(LOGIN_FAILED, { replace: true });
    else throw new Error('La verificación no se completó');
  }

  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center px-4 py-10">
      <section
        aria-labelledby="mfa-title"
        className="rounded-3xl bg-white px-6 py-8 shadow-xl ring-1 ring-slate-200/70 sm:px-8 dark:bg-ink-900 dark:ring-white/10"
      >
        <div className="brand-gradient mx-auto flex size-14 items-center justify-center rounded-2xl text-white shadow-lg shadow-fuchsia-600/25">
          <ShieldIcon className="size-7" />
        </div>
        <h1 id="mfa-title" className="mt-5 text-center text-2xl font-extrabold tracking-tight">
          Verificación en dos pasos
        </h1>
        <p className="mt-2 mb-6 text-center text-sm text-slate-500 dark:text-slate-400">
          Abre tu app de autenticación e ingresa el código de 6 dígitos para terminar de iniciar sesión.
        </p>
        <TotpCodeForm
          label="Código de verificación"
          submitLabel="Verificar"
          busyLabel="Verificando…"
          errorFallback="No se pudo verificar el código"
          onSubmit={verify}
          onCancel={() => void signOut()}
          autoFocus
        />
      </section>
    </div>
  );
}

type Phase = { kind: 'completing' } | { kind: 'second_factor'; factorId: string };

/**
 * /auth/callback, where Google sign-in comes back: an explicit `?error` goes to the login page's
 * error; otherwise the session decides: signed in → by role, a pending second step → the code
 * form, no user → /login.
 */
export function AuthCallbackPage() {
  useDocumentTitle('Iniciando sesión');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const setFromAuthSession = useSessionStore((state) => state.setFromAuthSession);
  const [phase, setPhase] = useState<Phase>({ kind: 'completing' });
  const failed = searchParams.has('error');

  useEffect(() => {
    if (failed) {
      navigate(LOGIN_FAILED, { replace: true });
      return;
    }
    const controller = new AbortController();
    fetchAuthSession(controller.signal).then(
      (session) => {
        if (controller.signal.aborted) return;
        setFromAuthSession(session);
        if (session.status === 'signed_in' && session.user) navigate(homeFor(session.user), { replace: true });
        else if (session.status === 'mfa_required' && session.factorId) setPhase({ kind: 'second_factor', factorId: session.factorId });
        else navigate('/login', { replace: true });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // The sign-in could not be completed: say so on the login page.
        console.error('Error al iniciar sesión', error);
        navigate(LOGIN_FAILED, { replace: true });
      },
    );
    return () => controller.abort();
  }, [failed, navigate, setFromAuthSession]);

  if (phase.kind === 'second_factor') return <SecondFactorStep factorId={phase.factorId} />;
  return <PageSpinner label="Iniciando sesión…" />;
}

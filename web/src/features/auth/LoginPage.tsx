import { useState, type MouseEvent, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/Alert';
import { ArrowLeftIcon } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { PageSpinner } from '../../components/Spinner';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { PrivacyContent } from '../../components/legal/PrivacyContent';
import { TermsContent } from '../../components/legal/TermsContent';
import { useSiteConfig } from '../../lib/siteStore';
import { ThemeToggle } from '../../components/ThemeToggle';
import { GOOGLE_SIGN_IN_PATH } from './api';
import { DevLoginSection } from './DevLoginSection';
import { GoogleLogo } from './GoogleLogo';
import { homeFor } from './homeFor';
import { useSessionStore } from '../../lib/session/sessionStore';

/** The message for the `?error=` the server or the callback page put on /login; null when there is none. */
export function loginErrorMessage(error: string | null): string | null {
  if (error === null) return null;
  if (error === 'google_not_configured') return 'El inicio de sesión con Google no está configurado';
  return 'Error al iniciar sesión';
}

type LegalDialog = 'terms' | 'privacy';

/**
 * A link to a legal page that opens it in a dialog instead; a modified click (new tab, new
 * window) still follows the link to the standalone page.
 */
function LegalLink({ to, onOpen, children }: { to: string; onOpen: () => void; children: ReactNode }) {
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen();
  }
  return (
    <Link
      to={to}
      onClick={onClick}
      aria-haspopup="dialog"
      className="font-semibold text-fuchsia-600 underline decoration-fuchsia-600/30 underline-offset-2 hover:decoration-fuchsia-600 dark:text-fuchsia-400 dark:decoration-fuchsia-400/30"
    >
      {children}
    </Link>
  );
}

/** /login: Google sign-in, the legal texts in dialogs and, in development, the demo sign-in. */
export function LoginPage() {
  useDocumentTitle('Iniciar sesión');
  const user = useSessionStore((state) => state.user);
  const status = useSessionStore((state) => state.status);
  const mfaPending = useSessionStore((state) => state.mfaFactorId !== null);
  const config = useSiteConfig();
  const [searchParams] = useSearchParams();
  const [dialog, setDialog] = useState<LegalDialog | null>(null);

  if (status === 'loading') return <PageSpinner label="Comprobando tu sesión…" />;
  if (user) return <Navigate to={homeFor(user)} replace />;

  const error = loginErrorMessage(searchParams.get('error'));

  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col px-4 pt-4 pb-10 sm:max-w-lg">
      <header className="flex items-center justify-between gap-3">
        <Link
          to="/"
          className="inline-flex items-center gap-2 rounded-full px-3 py-2 text-sm font-semibold text-slate-600 transition hover:bg-slate-200/70 dark:text-slate-300 dark:hover:bg-white/10"
        >
          <ArrowLeftIcon className="size-4" />
          Volver al inicio
        </Link>
        <ThemeToggle />
      </header>

      <div className="flex flex-1 flex-col justify-center pt-6">
        <section
          aria-labelledby="login-title"
          className="relative overflow-hidden rounded-3xl bg-white px-6 pt-10 pb-8 text-center shadow-xl ring-1 shadow-fuchsia-900/5 ring-slate-200/70 sm:px-10 dark:bg-ink-900 dark:shadow-black/30 dark:ring-white/10"
        >
          <div aria-hidden="true" className="brand-gradient absolute inset-x-0 top-0 h-1.5" />
          <div
            aria-hidden="true"
            className="brand-gradient pointer-events-none absolute -top-24 left-1/2 size-56 -translate-x-1/2 rounded-full opacity-20 blur-3xl"
          />

          <div className="brand-text relative text-5xl font-black tracking-tight">Tribuna</div>
          <p className="relative mx-auto mt-3 max-w-xs text-balance text-slate-600 dark:text-slate-300">
            Vota en vivo por tus participantes favoritos y sigue los resultados al instante.
          </p>

          <h1 id="login-title" className="mt-8 text-2xl font-extrabold tracking-tight">
            Iniciar sesión
          </h1>
          <p className="mt-1.5 text-sm text-slate-500 dark:text-slate-400">Entra con tu cuenta de Google para votar, sumar puntos y participar en el muro.</p>

          {error && (
            <Alert tone="error" className="mt-5 text-left">
              {error}
            </Alert>
          )}

          {mfaPending && (
            <p className="mt-5 rounded-2xl bg-fuchsia-600/10 px-4 py-3 text-sm text-fuchsia-900 dark:text-fuchsia-200">
              Tu inicio de sesión espera el código de verificación.{' '}
              <Link to="/auth/callback" className="font-bold underline">
                Ingresar el código
              </Link>
            </p>
          )}

          <a
            href={GOOGLE_SIGN_IN_PATH}
            className="mt-6 flex w-full items-center justify-center gap-3 rounded-full border border-slate-300 bg-white px-5 py-3.5 font-semibold text-slate-800 shadow-sm transition hover:bg-slate-50 hover:shadow-md active:scale-[0.99] dark:border-white/15 dark:bg-white dark:text-slate-900 dark:hover:bg-slate-100"
          >
            <GoogleLogo className="size-5" />
            Continuar con Google
          </a>

          <p className="mt-6 text-xs leading-relaxed text-pretty text-slate-500 dark:text-slate-400">
            Al continuar aceptas nuestros{' '}
            <LegalLink to="/terminos" onOpen={() => setDialog('terms')}>
              Términos y Condiciones
            </LegalLink>{' '}
            y la{' '}
            <LegalLink to="/privacidad" onOpen={() => setDialog('privacy')}>
              Política de Privacidad
            </LegalLink>
            .
          </p>
        </section>

        {config?.devLogin && <DevLoginSection />}
      </div>

      {dialog === 'terms' && (
        <Modal title="Términos y Condiciones" size="lg" onClose={() => setDialog(null)}>
          <TermsContent headingLevel={3} />
        </Modal>
      )}
      {dialog === 'privacy' && (
        <Modal title="Política de Privacidad" size="lg" onClose={() => setDialog(null)}>
          <PrivacyContent headingLevel={3} />
        </Modal>
      )}
    </div>
  );
}

import { Link } from 'react-router-dom';
import { AlertIcon, ClockIcon, UsersIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { InstallBanner } from '../../components/InstallBanner';
import { SocialLinks } from '../../components/SocialLinks';
import { PollCard } from './PollCard';
import { useHomePoll, type HomePollState } from './useHomePoll';

function PollSection({ state, retry }: { state: HomePollState; retry: () => void }) {
  if (state.status === 'loading') {
    return (
      <div aria-busy="true" className="overflow-hidden rounded-3xl bg-white ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
        <div className="brand-gradient h-48 animate-pulse opacity-60" />
        <Spinner label="Cargando encuesta…" className="py-10" />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div
        role="alert"
        className="flex flex-col items-center gap-3 rounded-3xl border border-rose-300 bg-rose-50 px-6 py-10 text-center text-rose-800 dark:border-rose-500/40 dark:bg-rose-500/10 dark:text-rose-200"
      >
        <AlertIcon className="size-8" />
        <p className="font-semibold">Error loading polls</p>
        <button type="button" onClick={retry} className="rounded-full bg-rose-600 px-5 py-2 text-sm font-bold text-white transition hover:bg-rose-700">
          Reintentar
        </button>
      </div>
    );
  }
  if (!state.poll) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-white/15">
        <ClockIcon className="size-10 text-slate-400" />
        <h1 className="text-xl font-bold">No hay encuestas activas</h1>
      </div>
    );
  }
  return <PollCard poll={state.poll} results={state.results} />;
}

/** A way from the home to the fan clubs (/grupos). */
function GroupsLink() {
  return (
    <Link
      to="/grupos"
      className="flex items-center gap-4 rounded-3xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 transition hover:shadow-md dark:bg-ink-900 dark:ring-white/10"
    >
      <span aria-hidden="true" className="brand-gradient inline-flex size-12 shrink-0 items-center justify-center rounded-2xl text-white">
        <UsersIcon className="size-6" />
      </span>
      <span className="min-w-0">
        <span className="block font-bold">Grupos de fans</span>
        <span className="block text-sm text-slate-600 dark:text-slate-400">Únete a los clubes de fans de tus participantes favoritos.</span>
      </span>
    </Link>
  );
}

export function HomePage() {
  useDocumentTitle();
  const { state, retry } = useHomePoll();
  return (
    <>
      {/* The site header (brand, theme, Iniciar sesión) comes from the layout (app/routes.tsx). */}
      <div className="mx-auto max-w-3xl space-y-10 px-4 pt-1 pb-10 sm:pt-8">
        <PollSection state={state} retry={retry} />
        <GroupsLink />
        <SocialLinks />
      </div>
      <InstallBanner />
    </>
  );
}

import { useEffect, useState, type ComponentType, type SVGProps } from 'react';
import { Link } from 'react-router-dom';
import { ADMIN_LIMITS, ADMIN_MESSAGES, ADMIN_POLL_STATUS_LABELS, UNKNOWN_STATUS_LABEL } from '@tribuna/contracts/adminRules';
import type { ActivityItem, DashboardStats, RecentPoll } from '@tribuna/contracts/api/admin/polls';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { PageHeader } from '../../../components/admin/PageHeader';
import { CounterSkeleton, LinesSkeleton } from '../../../components/admin/Skeletons';
import { StatusBadge, type BadgeTone } from '../../../components/admin/StatusBadge';
import { panel } from '../../../components/admin/buttons';
import { CREATE_PARAM } from '../../../components/admin/useCreateParam';
import { CalendarIcon, ChartIcon, EyeIcon, PeopleIcon, PlusIcon, StarIcon, UserPlusIcon, VoteIcon } from '../icons';
import { activityTime } from './activityTime';
import { useDashboard } from './useDashboard';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const numberFormat = new Intl.NumberFormat('es-ES');
export const formatCount = (n: number) => numberFormat.format(n);

const COUNTERS: ReadonlyArray<{ key: keyof DashboardStats; label: string; icon: Icon; tint: string }> = [
  { key: 'activePolls', label: 'Encuestas Activas', icon: ChartIcon, tint: 'bg-fuchsia-600/10 text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300' },
  { key: 'totalVotes', label: 'Total Votos', icon: VoteIcon, tint: 'bg-emerald-600/10 text-emerald-700 dark:bg-emerald-400/15 dark:text-emerald-300' },
  { key: 'totalUsers', label: 'Usuarios', icon: PeopleIcon, tint: 'bg-sky-600/10 text-sky-700 dark:bg-sky-400/15 dark:text-sky-300' },
  { key: 'pageViews24h', label: 'Vistas 24h', icon: EyeIcon, tint: 'bg-amber-500/10 text-amber-700 dark:bg-amber-400/15 dark:text-amber-300' },
];

const QUICK_ACTIONS: ReadonlyArray<{ to: string; label: string; icon: Icon }> = [
  { to: `/admin/encuestas?${CREATE_PARAM}=1`, label: 'Nueva encuesta', icon: ChartIcon },
  { to: `/admin/concursantes?${CREATE_PARAM}=1`, label: 'Nuevo concursante', icon: StarIcon },
  { to: `/admin/temporadas?${CREATE_PARAM}=1`, label: 'Nueva temporada', icon: CalendarIcon },
];

const STATUS_TONES: Record<string, BadgeTone> = { active: 'green', draft: 'amber', closed: 'slate' };

/** The dashboard's label of a poll status: Activa, Borrador, Finalizada, or Sin estado for anything else. */
export function recentPollLabel(status: string): string {
  return (ADMIN_POLL_STATUS_LABELS as Record<string, string>)[status] ?? UNKNOWN_STATUS_LABEL;
}

const ACTIVITY_ICONS: Record<ActivityItem['type'], { icon: Icon; label: string; tint: string }> = {
  vote: { icon: VoteIcon, label: 'Voto', tint: 'bg-emerald-600/10 text-emerald-700 dark:bg-emerald-400/15 dark:text-emerald-300' },
  user: { icon: UserPlusIcon, label: 'Usuario', tint: 'bg-sky-600/10 text-sky-700 dark:bg-sky-400/15 dark:text-sky-300' },
  poll: { icon: ChartIcon, label: 'Encuesta', tint: 'bg-fuchsia-600/10 text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300' },
};

/** Re-renders every minute so the relative times move on while the dashboard stays open. */
function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** /admin: the counters, quick actions, recent polls and recent activity (spec §2), live on the `admin` topic. */
export function DashboardPage() {
  const dashboard = useDashboard();
  const loading = dashboard.status === 'loading' || dashboard.status === 'idle';
  const data = dashboard.status === 'ready' ? dashboard.data : null;

  return (
    <div className="space-y-6">
      <PageHeader title="Dashboard" description="Resumen de la actividad del sitio." />

      {loading && (
        <p role="status" className="sr-only">
          Cargando datos del dashboard…
        </p>
      )}
      {dashboard.status === 'error' && <ErrorBanner error={dashboard.error} fallback={ADMIN_MESSAGES.loadDashboardFailed} onRetry={dashboard.refetch} />}

      <section aria-labelledby="admin-counters" className="space-y-3">
        <h3 id="admin-counters" className="sr-only">
          Estadísticas
        </h3>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-busy={loading}>
          {loading && <CounterSkeleton />}
          {data &&
            COUNTERS.map(({ key, label, icon: CounterIcon, tint }) => (
              <div key={key} className={`${panel} flex flex-col gap-3 p-4`}>
                <div className="flex items-center justify-between gap-2">
                  <p id={`counter-${key}`} className="text-sm font-semibold text-slate-600 dark:text-slate-400">
                    {label}
                  </p>
                  <span aria-hidden="true" className={`inline-flex size-9 items-center justify-center rounded-xl ${tint}`}>
                    <CounterIcon className="size-5" />
                  </span>
                </div>
                <p aria-labelledby={`counter-${key}`} data-testid={`counter-${key}`} className="text-2xl font-black tabular-nums sm:text-3xl">
                  {formatCount(data.stats[key])}
                </p>
              </div>
            ))}
        </div>
      </section>

      <section aria-labelledby="admin-quick-actions" className="space-y-3">
        <h3 id="admin-quick-actions" className="text-lg font-bold">
          Acciones rápidas
        </h3>
        <div className="grid gap-3 sm:grid-cols-3">
          {QUICK_ACTIONS.map(({ to, label, icon: ActionIcon }) => (
            <Link
              key={to}
              to={to}
              className={`${panel} flex min-h-14 items-center gap-3 px-4 py-3 font-semibold transition hover:ring-fuchsia-400 dark:hover:ring-fuchsia-400/60`}
            >
              <span aria-hidden="true" className="brand-gradient inline-flex size-9 items-center justify-center rounded-xl text-white">
                <PlusIcon className="size-5" />
              </span>
              <span className="flex-1">{label}</span>
              <ActionIcon className="size-5 text-slate-400" />
            </Link>
          ))}
        </div>
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section aria-labelledby="admin-recent-polls" className={`${panel} min-w-0 p-4 sm:p-5`}>
          <div className="mb-4 flex items-center justify-between gap-2">
            <h3 id="admin-recent-polls" className="text-lg font-bold">
              Encuestas recientes
            </h3>
            <Link to="/admin/encuestas" className="text-sm font-semibold text-fuchsia-700 hover:underline dark:text-fuchsia-300">
              Ver todas
            </Link>
          </div>
          {loading && <LinesSkeleton lines={ADMIN_LIMITS.recentPolls} />}
          {data && <RecentPolls polls={data.recentPolls.slice(0, ADMIN_LIMITS.recentPolls)} />}
        </section>

        <section aria-labelledby="admin-recent-activity" className={`${panel} min-w-0 p-4 sm:p-5`}>
          <h3 id="admin-recent-activity" className="mb-4 text-lg font-bold">
            Actividad reciente
          </h3>
          {loading && <LinesSkeleton lines={6} />}
          {data && <RecentActivity items={data.recentActivity.slice(0, ADMIN_LIMITS.recentActivity)} />}
        </section>
      </div>
    </div>
  );
}

function RecentPolls({ polls }: { polls: RecentPoll[] }) {
  if (polls.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">No hay encuestas todavía.</p>;
  return (
    <ul className="divide-y divide-slate-200 dark:divide-white/10" aria-label="Encuestas recientes">
      {polls.map((poll) => (
        <li key={poll.id} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold" title={poll.title}>
              {poll.title}
            </p>
            <p className="text-sm text-slate-500 tabular-nums dark:text-slate-400">
              {formatCount(poll.voteCount)} {poll.voteCount === 1 ? 'voto' : 'votos'}
            </p>
          </div>
          <StatusBadge tone={STATUS_TONES[poll.status] ?? 'rose'}>{recentPollLabel(poll.status)}</StatusBadge>
        </li>
      ))}
    </ul>
  );
}

function RecentActivity({ items }: { items: ActivityItem[] }) {
  const now = useNow();
  if (items.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">No hay actividad reciente.</p>;
  return (
    <ul className="space-y-3" aria-label="Actividad reciente" aria-live="polite">
      {items.map((item) => {
        const { icon: ItemIcon, label, tint } = ACTIVITY_ICONS[item.type] ?? ACTIVITY_ICONS.poll;
        return (
          <li key={item.id} className="flex items-start gap-3" data-activity-type={item.type}>
            <span className={`inline-flex size-8 shrink-0 items-center justify-center rounded-full ${tint}`}>
              <ItemIcon className="size-4" />
              <span className="sr-only">{label}</span>
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-sm break-words">{item.description}</p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                <time dateTime={item.createdAt}>{activityTime(item.createdAt, now)}</time>
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

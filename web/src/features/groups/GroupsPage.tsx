import { useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { GroupCard as GroupCardData } from '@tribuna/contracts/api/groups';
import { GROUP_LIMITS, GROUP_MESSAGES } from '@tribuna/contracts/groupRules';
import { GroupCard, GroupCardSkeletons, groupHref } from '../../components/GroupCard';
import { UsersIcon } from '../../components/icons';
import { LoadMoreButton, TabEmpty, TabError } from '../../components/ListStates';
import { errorMessage } from '../../lib/api';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { usePagedList } from '../../lib/usePagedList';
import { fetchDirectory } from './api';
import { memberCountText } from './format';
import { GroupFormDialog } from './GroupFormDialog';

/** How long the search box waits after the last key before it searches. */
export const SEARCH_DEBOUNCE_MS = 300;

type DirectoryRow = GroupCardData & { mine: boolean };

function DirectoryCard({ group }: { group: GroupCardData }) {
  return <GroupCard group={group} footer={<p className="font-semibold">{memberCountText(group.memberCount)}</p>} />;
}

function Section({ title, groups }: { title: string; groups: readonly GroupCardData[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="px-1 text-lg font-extrabold">
        {title}
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {groups.map((group) => (
          <DirectoryCard key={group.id} group={group} />
        ))}
      </ul>
    </section>
  );
}

/**
 * The directory's results for one search: 'Tus grupos' (first page only) then 'Descubre grupos',
 * most members first, with 'Cargar más'. Mounted again (keyed) for each search.
 */
function DirectoryResults({ query }: { query: string }) {
  const { state, loadMore, reload } = usePagedList<DirectoryRow>((cursor, signal) =>
    fetchDirectory(query, cursor, signal).then((page) => ({
      items: [...page.mine.map((g) => ({ ...g, mine: true })), ...page.groups.map((g) => ({ ...g, mine: false }))],
      nextCursor: page.nextCursor,
    })),
  );

  if (state.status === 'loading') return <GroupCardSkeletons label={query ? 'Buscando grupos…' : 'Cargando grupos…'} />;
  if (state.status === 'error') return <TabError message={errorMessage(state.error, GROUP_MESSAGES.loadFailed)} onRetry={reload} />;
  if (state.items.length === 0)
    return <TabEmpty icon={<UsersIcon className="size-8 text-slate-400" />}>{query ? GROUP_MESSAGES.emptySearch : GROUP_MESSAGES.empty}</TabEmpty>;

  const mine = state.items.filter((g) => g.mine);
  const others = state.items.filter((g) => !g.mine);
  return (
    <div className="space-y-8">
      {mine.length > 0 && <Section title="Tus grupos" groups={mine} />}
      {others.length > 0 && <Section title="Descubre grupos" groups={others} />}
      {state.moreError !== null && (
        <p role="alert" className="text-center text-sm font-medium text-rose-600 dark:text-rose-400">
          {errorMessage(state.moreError, GROUP_MESSAGES.loadFailed)}
        </p>
      )}
      {state.nextCursor && <LoadMoreButton onClick={loadMore} loading={state.loadingMore} />}
    </div>
  );
}

/** The search text a moment after the last key (SEARCH_DEBOUNCE_MS), trimmed. */
function useDebounced(text: string): string {
  const [value, setValue] = useState(text.trim());
  useEffect(() => {
    const timer = setTimeout(() => setValue(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return value;
}

/** /grupos: the fan clubs' directory (search by name, 'Tus grupos', 'Descubre grupos', 'Crear grupo'). */
export function GroupsPage() {
  useDocumentTitle('Grupos');
  const user = useSessionStore((s) => s.user);
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [creating, setCreating] = useState(false);
  const query = useDebounced(text);
  const searchId = useId();

  return (
    <div className="mx-auto max-w-3xl space-y-5 px-3 pt-6 pb-24 sm:px-4 md:pb-12">
      <header className="flex flex-wrap items-end justify-between gap-3 px-1">
        <div>
          <h1 className="text-3xl font-black tracking-tight">Grupos</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-400">Únete a los clubes de fans de tus participantes favoritos.</p>
        </div>
        {user ? (
          <button
            type="button"
            onClick={() => setCreating(true)}
            className="brand-gradient min-h-11 rounded-full px-5 text-sm font-bold text-white shadow-lg shadow-fuchsia-600/25 hover:opacity-90"
          >
            Crear grupo
          </button>
        ) : (
          <Link to="/login" className="inline-flex min-h-11 items-center rounded-full bg-fuchsia-600 px-5 text-sm font-bold text-white hover:bg-fuchsia-700">
            Inicia sesión para crear un grupo
          </Link>
        )}
      </header>

      <div role="search" className="px-1">
        <label htmlFor={searchId} className="sr-only">
          Buscar grupos por nombre
        </label>
        <input
          id={searchId}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={GROUP_LIMITS.search}
          placeholder="Buscar grupos por nombre"
          autoComplete="off"
          className="w-full rounded-full bg-white px-5 py-3 text-base ring-1 ring-slate-200 placeholder:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-ink-900 dark:ring-white/10 dark:placeholder:text-slate-400"
        />
      </div>

      <DirectoryResults key={query} query={query} />

      {creating && <GroupFormDialog onClose={() => setCreating(false)} onSaved={(group) => navigate(groupHref(group.id))} />}
    </div>
  );
}

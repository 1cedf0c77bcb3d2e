import { useId, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { CommentsTab } from './CommentsTab';
import { GroupsTab } from './GroupsTab';
import { VotesTab } from './VotesTab';

export const PROFILE_TABS = [
  { id: 'votaciones', label: 'Votaciones' },
  { id: 'posts', label: 'Posts' },
  { id: 'comentarios', label: 'Comentarios' },
  { id: 'grupos', label: 'Grupos' },
] as const;

export type ProfileTabId = (typeof PROFILE_TABS)[number]['id'];

/** What a tab's panel is given. */
export interface TabPanelProps {
  userId: string;
  own: boolean;
}

interface ProfileTabsProps extends TabPanelProps {
  /** The Posts tab's panel: the wall's feed of this user (another feature's, composed by the app). */
  PostsPanel: ComponentType<TabPanelProps>;
}

/**
 * The profile's tabs (WAI-ARIA tabs: arrows, Home and End move and select, one tab stop). A panel
 * loads when its tab is first opened and stays mounted (hidden) afterwards, so coming back to it
 * neither reloads it nor loses its pages.
 */
export function ProfileTabs({ userId, own, PostsPanel }: ProfileTabsProps) {
  const panels: Record<ProfileTabId, ComponentType<TabPanelProps>> = { votaciones: VotesTab, posts: PostsPanel, comentarios: CommentsTab, grupos: GroupsTab };
  const [selected, setSelected] = useState<ProfileTabId>('votaciones');
  const [visited, setVisited] = useState<ReadonlySet<ProfileTabId>>(() => new Set(['votaciones']));
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  function select(id: ProfileTabId) {
    setSelected(id);
    setVisited((current) => (current.has(id) ? current : new Set([...current, id])));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = PROFILE_TABS.findIndex((tab) => tab.id === selected);
    const last = PROFILE_TABS.length - 1;
    let next: number;
    if (event.key === 'ArrowRight') next = index === last ? 0 : index + 1;
    else if (event.key === 'ArrowLeft') next = index === 0 ? last : index - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    else return;
    event.preventDefault();
    select(PROFILE_TABS[next]!.id);
    tabRefs.current[next]?.focus();
  }

  return (
    <div>
      <div
        role="tablist"
        aria-label="Secciones del perfil"
        onKeyDown={onKeyDown}
        className="sticky top-0 z-10 -mx-3 mb-4 flex overflow-x-auto border-b border-slate-200 bg-slate-50/95 px-1 backdrop-blur sm:mx-0 md:top-16 dark:border-white/10 dark:bg-ink-950/95"
      >
        {PROFILE_TABS.map((tab, index) => {
          const active = tab.id === selected;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={active}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={active ? 0 : -1}
              onClick={() => select(tab.id)}
              className={`min-h-11 flex-1 shrink-0 border-b-2 px-3 text-sm font-bold whitespace-nowrap transition ${
                active
                  ? 'border-fuchsia-600 text-fuchsia-700 dark:border-fuchsia-400 dark:text-fuchsia-300'
                  : 'border-transparent text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {PROFILE_TABS.map(({ id }) => {
        const Panel = panels[id];
        return (
          <div
            key={id}
            role="tabpanel"
            id={`${baseId}-panel-${id}`}
            aria-labelledby={`${baseId}-tab-${id}`}
            hidden={id !== selected}
            tabIndex={0}
            className="rounded-3xl focus-visible:outline-offset-4"
          >
            {visited.has(id) && <Panel userId={userId} own={own} />}
          </div>
        );
      })}
    </div>
  );
}

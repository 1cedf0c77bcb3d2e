import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDefinition<Id extends string> {
  id: Id;
  label: string;
  /** A count after the label (the group's pending requests); 0 or none shows nothing. */
  count?: number;
  /** How screen readers hear the count ('3 pendientes'). */
  countLabel?: (count: number) => string;
  panel: () => ReactNode;
}

/**
 * Tabs (WAI-ARIA: arrows, Home and End move and select, one tab stop). A panel renders when its tab
 * is first opened and stays mounted (hidden) afterwards, so coming back to it neither reloads it nor
 * loses its pages. A tab that disappears (a right lost) leaves the first one selected.
 */
export function Tabs<Id extends string>({ label, tabs }: { label: string; tabs: ReadonlyArray<TabDefinition<Id>> }) {
  const [chosen, setChosen] = useState<Id | null>(null);
  const [visited, setVisited] = useState<ReadonlySet<Id>>(() => new Set());
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const selected = tabs.find((tab) => tab.id === chosen)?.id ?? tabs[0]?.id;

  function select(id: Id) {
    setChosen(id);
    setVisited((current) => (current.has(id) ? current : new Set([...current, id])));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const last = tabs.length - 1;
    let next: number;
    if (event.key === 'ArrowRight') next = index === last ? 0 : index + 1;
    else if (event.key === 'ArrowLeft') next = index === 0 ? last : index - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    else return;
    event.preventDefault();
    select(tabs[next]!.id);
    tabRefs.current[next]?.focus();
  }

  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="sticky top-0 z-10 -mx-3 mb-4 flex overflow-x-auto border-b border-slate-200 bg-slate-50/95 px-1 backdrop-blur sm:mx-0 md:top-16 dark:border-white/10 dark:bg-ink-950/95"
      >
        {tabs.map((tab, index) => {
          const active = tab.id === selected;
          const count = tab.count ?? 0;
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
              className={`inline-flex min-h-11 flex-1 shrink-0 items-center justify-center gap-1.5 border-b-2 px-3 text-sm font-bold whitespace-nowrap transition ${
                active
                  ? 'border-fuchsia-600 text-fuchsia-700 dark:border-fuchsia-400 dark:text-fuchsia-300'
                  : 'border-transparent text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200'
              }`}
            >
              {tab.label}
              {count > 0 && (
                <>
                  <span aria-hidden="true" className="rounded-full bg-fuchsia-600 px-1.5 py-0.5 text-[11px] leading-none font-bold text-white tabular-nums">
                    {count}
                  </span>
                  <span className="sr-only">, {tab.countLabel ? tab.countLabel(count) : count}</span>
                </>
              )}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={tab.id !== selected}
          tabIndex={0}
          className="rounded-3xl focus-visible:outline-offset-4"
        >
          {(tab.id === selected || visited.has(tab.id)) && tab.panel()}
        </div>
      ))}
    </div>
  );
}

import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ReactionCounts } from '@tribuna/contracts/api/wall';
import { REACTIONS, REACTION_TYPES, type ReactionType } from '@tribuna/contracts/wallRules';
import { useDismiss, type DismissReason } from '../../lib/useDismiss';
import { HeartIcon } from './icons';

interface ReactionPickerProps {
  myReaction: ReactionType | null;
  /** Visitors see the counts but cannot react. */
  disabled: boolean;
  onPick: (type: ReactionType) => void;
}

/**
 * The reaction button: shows the viewer's reaction (or 'Reaccionar') and opens a 320 px picker of
 * the six types; Escape and a click outside close it.
 */
export function ReactionPicker({ myReaction, disabled, onPick }: ReactionPickerProps) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const pickerId = useId();
  const close = useCallback((reason?: DismissReason) => {
    setOpen(false);
    if (reason === 'escape') buttonRef.current?.focus();
  }, []);
  useDismiss(open, containerRef, close);

  useEffect(() => {
    if (open) containerRef.current?.querySelector<HTMLElement>('[data-reaction]')?.focus();
  }, [open]);

  const mine = myReaction ? REACTIONS[myReaction] : null;
  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        disabled={disabled}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? pickerId : undefined}
        aria-label={mine ? `Tu reacción: ${mine.label}. Cambiar reacción` : 'Reaccionar'}
        title={disabled ? 'Inicia sesión para reaccionar' : undefined}
        onClick={() => setOpen((value) => !value)}
        className={`inline-flex min-h-10 items-center gap-1.5 rounded-full px-3 text-sm font-semibold transition disabled:cursor-not-allowed disabled:opacity-50 ${
          mine
            ? 'bg-fuchsia-100 text-fuchsia-700 dark:bg-fuchsia-500/20 dark:text-fuchsia-200'
            : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-white/10'
        }`}
      >
        {mine ? <span aria-hidden="true">{mine.emoji}</span> : <HeartIcon className="size-5" />}
        <span>{mine ? mine.label : 'Reaccionar'}</span>
      </button>
      {open && (
        <div
          id={pickerId}
          role="group"
          aria-label="Elige una reacción"
          className="absolute bottom-full left-0 z-20 mb-2 flex w-80 max-w-[calc(100vw-2rem)] justify-between rounded-full bg-white p-1.5 shadow-2xl ring-1 ring-slate-200 dark:bg-ink-800 dark:ring-white/10"
        >
          {REACTION_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              data-reaction={type}
              aria-label={REACTIONS[type].label}
              aria-pressed={myReaction === type}
              title={REACTIONS[type].label}
              onClick={() => {
                setOpen(false);
                buttonRef.current?.focus();
                onPick(type);
              }}
              className="inline-flex size-11 items-center justify-center rounded-full text-2xl transition hover:bg-slate-100 aria-pressed:bg-fuchsia-100 motion-safe:hover:scale-125 dark:hover:bg-white/10 dark:aria-pressed:bg-fuchsia-500/25"
            >
              {REACTIONS[type].emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The non-zero counts per type, the viewer's own highlighted. */
export function ReactionCountsList({ reactions, myReaction }: { reactions: ReactionCounts; myReaction: ReactionType | null }) {
  const types = REACTION_TYPES.filter((type) => reactions[type] > 0);
  if (types.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Reacciones">
      {types.map((type) => (
        <li
          key={type}
          title={REACTIONS[type].label}
          className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${
            myReaction === type
              ? 'bg-fuchsia-100 text-fuchsia-700 ring-1 ring-fuchsia-400 dark:bg-fuchsia-500/20 dark:text-fuchsia-200'
              : 'bg-slate-100 text-slate-700 dark:bg-white/5 dark:text-slate-300'
          }`}
        >
          <span aria-hidden="true">{REACTIONS[type].emoji}</span>
          <span className="sr-only">{REACTIONS[type].label}:</span> {reactions[type]}
        </li>
      ))}
    </ul>
  );
}

import { useEffect, useRef, useState } from 'react';
import { EMOJI_CATEGORIES } from './emoji';

/** The outside-click listener is attached this long after opening (spec §9), so the opening click does not close it. */
export const EMOJI_OUTSIDE_CLICK_DELAY_MS = 100;

interface EmojiPickerProps {
  onPick: (emoji: string) => void;
  onClose: () => void;
}

/** A floating emoji palette in six categories; Escape or a click outside closes it. */
export function EmojiPicker({ onPick, onClose }: EmojiPickerProps) {
  const [category, setCategory] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    function onPointerDown(event: Event) {
      if (ref.current && event.target instanceof Node && !ref.current.contains(event.target)) onCloseRef.current();
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') onCloseRef.current();
    }
    const timer = setTimeout(() => document.addEventListener('mousedown', onPointerDown), EMOJI_OUTSIDE_CLICK_DELAY_MS);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, []);

  const current = EMOJI_CATEGORIES[category] ?? EMOJI_CATEGORIES[0]!;
  return (
    <div
      ref={ref}
      role="dialog"
      aria-label="Selector de emojis"
      className="absolute top-full left-0 z-30 mt-2 w-[min(20rem,calc(100vw-2rem))] rounded-2xl bg-white p-3 shadow-2xl ring-1 ring-slate-200 dark:bg-ink-800 dark:ring-white/10"
    >
      <div className="mb-2 flex gap-1 overflow-x-auto" role="group" aria-label="Categorías">
        {EMOJI_CATEGORIES.map((c, index) => (
          <button
            key={c.name}
            type="button"
            aria-pressed={index === category}
            title={c.name}
            onClick={() => setCategory(index)}
            className="flex shrink-0 items-center gap-1 rounded-full px-2 py-1 text-xs font-semibold text-slate-600 hover:bg-slate-100 aria-pressed:bg-fuchsia-100 aria-pressed:text-fuchsia-700 dark:text-slate-300 dark:hover:bg-white/10 dark:aria-pressed:bg-fuchsia-500/20 dark:aria-pressed:text-fuchsia-200"
          >
            <span aria-hidden="true">{c.icon}</span>
            {c.name}
          </button>
        ))}
      </div>
      <div className="grid max-h-48 grid-cols-8 gap-0.5 overflow-y-auto" role="group" aria-label={current.name}>
        {current.emoji.map((emoji) => (
          <button
            key={emoji}
            type="button"
            aria-label={emoji}
            onClick={() => onPick(emoji)}
            className="flex aspect-square items-center justify-center rounded-lg text-xl hover:bg-slate-100 dark:hover:bg-white/10"
          >
            {emoji}
          </button>
        ))}
      </div>
      <p className="mt-2 text-center text-xs text-slate-500 dark:text-slate-400">Haz clic en un emoji para agregarlo</p>
    </div>
  );
}

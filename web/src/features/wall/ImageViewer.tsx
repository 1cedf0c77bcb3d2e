import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { createPortal } from 'react-dom';
import type { MediaView } from '@tribuna/contracts/api/wall';
import { CloseIcon } from '../../components/icons';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import { TileImage } from './TileImage';
import { useLatest } from '../../lib/useLatest';

const FOCUSABLE = 'button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';
/** A horizontal drag this long (px) changes the image. */
const SWIPE_PX = 50;
const DOUBLE_TAP_MS = 300;
const MAX_ZOOM = 4;

interface ViewerProps {
  media: MediaView[];
  start: number;
  onClose: () => void;
}

interface Gesture {
  pointers: Map<number, { x: number; y: number }>;
  startX: number;
  startY: number;
  startDistance: number;
  startScale: number;
  startOffset: { x: number; y: number };
  lastTap: number;
  moved: boolean;
}

const distance = (points: Array<{ x: number; y: number }>) => {
  const [a, b] = points;
  return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
};

/**
 * The full-screen image viewer: a modal dialog (focus trapped, Escape closes, focus goes back),
 * ←/→ keys and swipes to move, pinch or double-tap to zoom, and a '2 / 5' counter.
 */
export function ImageViewer({ media, start, onClose }: ViewerProps) {
  const [index, setIndex] = useState(Math.min(Math.max(0, start), media.length - 1));
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const dialogRef = useRef<HTMLDivElement>(null);
  const gesture = useRef<Gesture>({
    pointers: new Map(),
    startX: 0,
    startY: 0,
    startDistance: 0,
    startScale: 1,
    startOffset: { x: 0, y: 0 },
    lastTap: 0,
    moved: false,
  });
  const count = media.length;
  const item = media[index];
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  const go = (delta: number) => {
    setIndex((i) => (i + delta + count) % count);
    setScale(1);
    setOffset({ x: 0, y: 0 });
  };
  const goRef = useLatest(go);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
      } else if (event.key === 'ArrowLeft') goRef.current(-1);
      else if (event.key === 'ArrowRight') goRef.current(1);
      else if (event.key === 'Tab' && dialog) {
        const items = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
        const first = items[0];
        const last = items[items.length - 1];
        if (!first || !last) return event.preventDefault();
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, [goRef]);

  function onPointerDown(event: ReactPointerEvent<HTMLDivElement>) {
    const g = gesture.current;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    g.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    g.startScale = scale;
    g.startOffset = offset;
    if (g.pointers.size === 1) {
      g.startX = event.clientX;
      g.startY = event.clientY;
      g.moved = false;
    } else if (g.pointers.size === 2) {
      g.startDistance = distance([...g.pointers.values()]);
    }
  }

  function onPointerMove(event: ReactPointerEvent<HTMLDivElement>) {
    const g = gesture.current;
    if (!g.pointers.has(event.pointerId)) return;
    g.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (g.pointers.size === 2 && g.startDistance > 0) {
      g.moved = true;
      const next = Math.min(MAX_ZOOM, Math.max(1, (g.startScale * distance([...g.pointers.values()])) / g.startDistance));
      setScale(next);
      if (next === 1) setOffset({ x: 0, y: 0 });
    } else if (g.pointers.size === 1) {
      const dx = event.clientX - g.startX;
      const dy = event.clientY - g.startY;
      if (Math.abs(dx) > 5 || Math.abs(dy) > 5) g.moved = true;
      // Zoomed in: a drag pans the image.
      if (scale > 1) setOffset({ x: g.startOffset.x + dx, y: g.startOffset.y + dy });
    }
  }

  function onPointerUp(event: ReactPointerEvent<HTMLDivElement>) {
    const g = gesture.current;
    if (!g.pointers.has(event.pointerId)) return;
    const wasSingle = g.pointers.size === 1;
    g.pointers.delete(event.pointerId);
    if (!wasSingle) {
      // One finger of a pinch lifted: the other one continues as a pan from here.
      const rest = [...g.pointers.values()][0];
      if (rest) {
        g.startX = rest.x;
        g.startY = rest.y;
        g.startOffset = offset;
      }
      return;
    }
    const dx = event.clientX - g.startX;
    const dy = event.clientY - g.startY;
    if (scale === 1 && Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) {
      go(dx < 0 ? 1 : -1);
      g.lastTap = 0;
      return;
    }
    if (g.moved) return;
    const now = Date.now();
    if (now - g.lastTap < DOUBLE_TAP_MS) {
      g.lastTap = 0;
      setScale((s) => (s > 1 ? 1 : 2.5));
      setOffset({ x: 0, y: 0 });
    } else {
      g.lastTap = now;
    }
  }

  if (!item) return null;
  const buttonClass = 'inline-flex size-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20 focus-visible:outline-white';
  return createPortal(
    <div ref={dialogRef} role="dialog" aria-modal="true" aria-label="Visor de imágenes" className="fixed inset-0 z-50 flex flex-col bg-black text-white">
      <div className="flex items-center justify-between gap-2 p-3">
        <p aria-live="polite" className="px-2 text-sm font-semibold tabular-nums">
          {index + 1} / {count}
        </p>
        <button type="button" onClick={onClose} aria-label="Cerrar visor" className={buttonClass} data-autofocus>
          <CloseIcon className="size-6" />
        </button>
      </div>
      <div className="relative min-h-0 flex-1">
        <div
          className="absolute inset-0 flex touch-none items-center justify-center overflow-hidden select-none"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          data-testid="viewer-stage"
        >
          <TileImage
            key={index}
            media={item}
            full
            eager
            className="max-h-full max-w-full object-contain transition-transform duration-150 motion-reduce:transition-none"
            style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${scale})`, width: 'auto', height: 'auto' }}
          />
        </div>
        {count > 1 && (
          <>
            <button type="button" onClick={() => go(-1)} aria-label="Imagen anterior" className={`${buttonClass} absolute top-1/2 left-2 -translate-y-1/2`}>
              <ChevronLeftIcon className="size-6" />
            </button>
            <button type="button" onClick={() => go(1)} aria-label="Imagen siguiente" className={`${buttonClass} absolute top-1/2 right-2 -translate-y-1/2`}>
              <ChevronRightIcon className="size-6" />
            </button>
          </>
        )}
      </div>
      {item.alt && <p className="px-4 pb-4 text-center text-sm text-white/80">{item.alt}</p>}
    </div>,
    document.body,
  );
}

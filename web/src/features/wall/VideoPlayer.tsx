import { useRef, useState } from 'react';
import type { MediaView } from '@tribuna/contracts/api/wall';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';
import { placeholderUrl } from '../../lib/placeholder';
import { ExpandIcon } from './icons';

/** A clip's length as a badge shows it: m:ss. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** The frame's aspect ratio, kept between portrait 4:5 and landscape 2:1 (the clip is letterboxed beyond). */
function frameRatio(media: MediaView): string {
  if (!media.width || !media.height) return '16 / 9';
  const ratio = media.width / media.height;
  if (ratio < 0.8) return '4 / 5';
  if (ratio > 2) return '2 / 1';
  return `${media.width} / ${media.height}`;
}

type FullscreenVideo = HTMLVideoElement & { webkitEnterFullscreen?: () => void };

/** Whether this browser can show a video element full screen (iPhone Safari only through webkitEnterFullscreen). */
function fullscreenSupported(): boolean {
  if (typeof HTMLVideoElement === 'undefined') return false;
  const proto = HTMLVideoElement.prototype as FullscreenVideo;
  return typeof proto.requestFullscreen === 'function' || typeof proto.webkitEnterFullscreen === 'function';
}

/**
 * A post's clip, inline: the browser's own controls (keyboard and screen-reader operable), the
 * poster frame over its ThumbHash, nothing downloaded before the reader presses play
 * (preload="none": a feed page does not fetch its videos), never autoplay, sound as the reader
 * chooses. A badge with its length until it plays, and a full-screen button.
 */
export function VideoPlayer({ media }: { media: MediaView }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [started, setStarted] = useState(false);
  const [canFullscreen] = useState(fullscreenSupported);
  const placeholder = placeholderUrl(media.placeholder);
  const label = media.alt?.trim() || 'Video';

  function fullscreen() {
    const video = ref.current as FullscreenVideo | null;
    if (!video) return;
    if (typeof video.requestFullscreen === 'function') {
      video.requestFullscreen().catch((error: unknown) => {
        // Refused (an iframe, a setting): Safari's own player may still take it.
        if (typeof video.webkitEnterFullscreen === 'function') video.webkitEnterFullscreen();
        else console.debug('No se pudo abrir el video en pantalla completa', error);
      });
    } else video.webkitEnterFullscreen?.();
  }

  return (
    <figure className="relative overflow-hidden rounded-2xl bg-black">
      <video
        ref={ref}
        src={presentableImageUrl(media.url) ?? undefined}
        poster={presentableImageUrl(media.thumbnailUrl) ?? undefined}
        controls
        playsInline
        preload="none"
        aria-label={label}
        onPlay={() => setStarted(true)}
        className="block w-full object-contain"
        style={{
          aspectRatio: frameRatio(media),
          ...(placeholder
            ? { backgroundImage: `url(${placeholder})`, backgroundSize: 'contain', backgroundPosition: 'center', backgroundRepeat: 'no-repeat' }
            : {}),
        }}
      />
      {!started && typeof media.durationS === 'number' && (
        <span className="pointer-events-none absolute top-2 left-2 rounded-full bg-black/70 px-2 py-0.5 text-xs font-bold text-white tabular-nums">
          <span className="sr-only">Duración: </span>
          {formatDuration(media.durationS)}
        </span>
      )}
      {canFullscreen && (
        <button
          type="button"
          onClick={fullscreen}
          aria-label="Ver video en pantalla completa"
          title="Pantalla completa"
          className="absolute top-2 right-2 inline-flex size-10 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-white"
        >
          <ExpandIcon className="size-5" />
        </button>
      )}
    </figure>
  );
}

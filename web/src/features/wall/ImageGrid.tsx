import { useState } from 'react';
import type { MediaView } from '@tribuna/contracts/api/wall';
import { ImageViewer } from './ImageViewer';
import { TileImage } from './TileImage';
import { VideoPlayer } from './VideoPlayer';

/** The grid shows at most this many tiles (spec §9); the last one carries '+N' for the rest. */
export const MAX_TILES = 4;

/** The aspect ratio of a lone image, kept between portrait 4:5 and landscape 2:1. */
function singleRatio(media: MediaView): string {
  if (!media.width || !media.height) return '4 / 3';
  const ratio = Math.min(2, Math.max(0.8, media.width / media.height));
  return String(ratio);
}

const LAYOUTS: Record<number, string[]> = {
  2: ['aspect-square', 'aspect-square'],
  3: ['row-span-2 h-full', 'aspect-square', 'aspect-square'],
  4: ['aspect-square', 'aspect-square', 'aspect-square', 'aspect-square'],
};

/**
 * A post's images: 1, 2, 3 or 4 tiles ('+N' over the fourth when there are more); a click opens the
 * viewer. A video post (one clip, no images) gets its player instead.
 */
export function ImageGrid({ media }: { media: MediaView[] }) {
  const [viewing, setViewing] = useState<number | null>(null);
  if (media.length === 0) return null;
  const video = media.find((item) => item.mediaType === 'video');
  if (video) return <VideoPlayer media={video} />;
  const shown = media.slice(0, MAX_TILES);
  const hidden = media.length - shown.length;
  const layout = LAYOUTS[shown.length];

  return (
    <>
      <div className={`grid gap-1 overflow-hidden rounded-2xl ${shown.length > 1 ? 'grid-cols-2' : 'grid-cols-1'}`}>
        {shown.map((item, index) => {
          const more = index === shown.length - 1 && hidden > 0;
          const label = `${item.alt ? `${item.alt}. ` : ''}Ver imagen ${index + 1} de ${media.length}`;
          return (
            <button
              key={`${item.url}-${index}`}
              type="button"
              onClick={() => setViewing(index)}
              aria-label={more ? `${label}, +${hidden} más` : label}
              className={`relative block overflow-hidden bg-slate-200 dark:bg-white/10 ${layout?.[index] ?? ''}`}
              style={shown.length === 1 ? { aspectRatio: singleRatio(item) } : undefined}
            >
              <TileImage media={item} className="size-full object-cover" />
              {more && (
                <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center bg-black/55 text-3xl font-black text-white">
                  +{hidden}
                </span>
              )}
            </button>
          );
        })}
      </div>
      {viewing !== null && <ImageViewer media={media} start={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}

import { useState, type CSSProperties } from 'react';
import type { MediaView } from '@tribuna/contracts/api/wall';
import { placeholderUrl } from '../../lib/placeholder';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';

interface TileImageProps {
  media: MediaView;
  className?: string;
  style?: CSSProperties;
  /** The full image rather than the thumbnail (the viewer). */
  full?: boolean;
  eager?: boolean;
}

/** An image over its ThumbHash placeholder, with its intrinsic size so nothing shifts when it loads. */
export function TileImage({ media, className = '', style, full = false, eager = false }: TileImageProps) {
  const [loaded, setLoaded] = useState(false);
  const placeholder = loaded ? null : placeholderUrl(media.placeholder);
  return (
    <img
      src={presentableImageUrl(full ? media.url : (media.thumbnailUrl ?? media.url)) ?? undefined}
      alt={media.alt ?? ''}
      width={media.width ?? undefined}
      height={media.height ?? undefined}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      draggable={false}
      onLoad={() => setLoaded(true)}
      className={className}
      style={{ ...style, ...(placeholder ? { backgroundImage: `url(${placeholder})`, backgroundSize: 'cover', backgroundPosition: 'center' } : {}) }}
    />
  );
}

/** How long the browser may take to read a clip's header before the server is left to decide. */
const READ_TIMEOUT_MS = 15_000;

/**
 * A picked clip's duration in seconds, read from its header by a detached <video> element (nothing
 * is decoded or shown). Null when this browser cannot read it (a codec it lacks, no object URLs,
 * no answer in time): the server probes every upload anyway.
 */
export function readVideoDuration(file: File): Promise<number | null> {
  if (typeof URL.createObjectURL !== 'function' || typeof document === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const finish = (duration: number | null) => {
      clearTimeout(timer);
      video.removeAttribute('src');
      video.onloadedmetadata = null;
      video.onerror = null;
      if (typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
      resolve(duration !== null && Number.isFinite(duration) && duration >= 0 ? duration : null);
    };
    const timer = setTimeout(() => finish(null), READ_TIMEOUT_MS);
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => finish(video.duration);
    video.onerror = () => finish(null);
    video.src = url;
  });
}

import { vi } from 'vitest';

const PREFIX = 'blob:fake/';

/**
 * Object URLs and clip headers for tests of picked videos (jsdom has neither): createObjectURL
 * answers `blob:fake/<file name>`, and a <video> whose `src` is set to one reads that file's
 * duration from `durations` (seconds; null or missing: the browser cannot read it, 'error'),
 * answering with loadedmetadata or error on the next microtask, as a browser does asynchronously.
 */
export function installFakeVideo(durations: Record<string, number | null>) {
  const revoked: string[] = [];
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, { createObjectURL: (file: File) => `${PREFIX}${file.name}`, revokeObjectURL: (url: string) => revoked.push(url) }),
  );
  vi.spyOn(HTMLMediaElement.prototype, 'src', 'set').mockImplementation(function (this: HTMLMediaElement, value: string) {
    this.setAttribute('src', value);
    if (!value.startsWith(PREFIX)) return;
    const duration = durations[value.slice(PREFIX.length)] ?? null;
    queueMicrotask(() => {
      if (duration === null) {
        this.dispatchEvent(new Event('error'));
        return;
      }
      Object.defineProperty(this, 'duration', { value: duration, configurable: true });
      this.dispatchEvent(new Event('loadedmetadata'));
    });
  });
  return { revoked };
}

/** A picked file of `type` that claims `size` bytes (no memory spent on a 50 MB clip). */
export function pickedFile(name: string, type: string, size = 1000): File {
  const file = new File([new Uint8Array(8)], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

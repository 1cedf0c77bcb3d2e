// Video clips for the server's tests, made with the project's own FFmpeg (the installer package
// the server probes uploads with): a test pattern and a tone, small and short.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../../server/src/media/videoProbe.ts';

const run = promisify(execFile);

export interface ClipOptions {
  seconds?: number;
  /** Width×height of the picture. */
  size?: string;
  /** Frames per second. */
  rate?: number;
  /** A 440 Hz tone as its sound (default true). */
  audio?: boolean;
}

/** Writes a clip of FFmpeg's test pattern to `path` (its extension picks the container: .mp4, .mov, .webm). */
export async function makeClip(path: string, { seconds = 2, size = '160x120', rate = 10, audio = true }: ClipOptions = {}): Promise<void> {
  const webm = path.endsWith('.webm');
  await run(
    ffmpegBinaries().ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${size}:rate=${rate}`,
      ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440'] : []),
      '-t',
      String(seconds),
      '-c:v',
      webm ? 'libvpx' : 'mpeg4',
      ...(audio ? ['-c:a', webm ? 'libvorbis' : 'aac'] : []),
      path,
    ],
    { timeout: 120_000 },
  );
}

let small: Promise<Buffer> | null = null;

/** The bytes of a 2-second 160×120 MP4 with sound, made once per test process. */
export function smallClip(): Promise<Buffer> {
  small ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tribuna-clip-'));
    try {
      const path = join(dir, 'clip.mp4');
      await makeClip(path);
      return await readFile(path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return small;
}

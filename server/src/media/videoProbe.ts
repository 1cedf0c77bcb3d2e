import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

// Video clips (issue 30): where FFmpeg is, whether it works, and what a clip holds (ffprobe). The
// server probes an upload before accepting it (POST /api/posts/video); the worker probes and
// transcodes (worker/src/media/video.ts re-exports these). The binaries come from the project's
// own install (@ffmpeg-installer and @ffprobe-installer ship them inside registry packages) unless
// FFMPEG_PATH / FFPROBE_PATH name others (a system build).
// No server-only imports here: the worker uses this module too.

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

/** A missing or broken FFmpeg, told plainly (at the worker's start, to a job or an upload that needs it). */
export class FfmpegUnavailableError extends Error {
  constructor(binary: string, cause: unknown) {
    super(
      `FFmpeg is not usable (${binary}): ${(cause as Error).message?.split('\n')[0] ?? String(cause)}. Set FFMPEG_PATH and FFPROBE_PATH to a working build.`,
    );
    this.name = 'FfmpegUnavailableError';
  }
}

/** FFMPEG_PATH / FFPROBE_PATH, else the binaries of the installer packages (FfmpegUnavailableError if neither). */
export function ffmpegBinaries(env: NodeJS.ProcessEnv = process.env): FfmpegBinaries {
  const fromPackage = (name: string) => {
    try {
      return (require(name) as { path: string }).path;
    } catch (err) {
      // No build of the package for this platform, or the package is not installed.
      throw new FfmpegUnavailableError(name, err);
    }
  };
  return {
    ffmpeg: env.FFMPEG_PATH || fromPackage('@ffmpeg-installer/ffmpeg'),
    ffprobe: env.FFPROBE_PATH || fromPackage('@ffprobe-installer/ffprobe'),
  };
}

/** Runs `-version` of both binaries; rejects with FfmpegUnavailableError naming the one that failed. */
export async function checkFfmpeg(bin: FfmpegBinaries = ffmpegBinaries()): Promise<{ ffmpeg: string; ffprobe: string }> {
  const version = async (path: string) => {
    try {
      const { stdout } = await run(path, ['-version'], { timeout: 10_000 });
      return stdout.split('\n')[0]!.trim();
    } catch (err) {
      throw new FfmpegUnavailableError(path, err);
    }
  };
  return { ffmpeg: await version(bin.ffmpeg), ffprobe: await version(bin.ffprobe) };
}

export interface VideoProbe {
  durationS: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  formatName: string;
}

/** Not a video FFmpeg can read, or one without a video stream. */
export class NotAVideoError extends Error {
  constructor(reason: string) {
    super(`not a video: ${reason}`);
    this.name = 'NotAVideoError';
  }
}

interface ProbeOutput {
  format?: { duration?: string; format_name?: string };
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }[];
}

/** The binary could not be started at all (missing, not executable): FFmpeg's fault, not the file's. */
const notStarted = (err: unknown) => ['ENOENT', 'EACCES', 'ENOEXEC', 'EPERM'].includes(String((err as NodeJS.ErrnoException).code));

/**
 * Duration, size and codecs of a file, read before any work is done on it. Rejects with
 * NotAVideoError for a file ffprobe cannot read as a video, FfmpegUnavailableError when ffprobe
 * itself cannot run.
 */
export async function probeVideo(file: string, bin: FfmpegBinaries = ffmpegBinaries()): Promise<VideoProbe> {
  let output: ProbeOutput;
  try {
    const { stdout } = await run(bin.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      timeout: 30_000,
      maxBuffer: 4 * 1024 * 1024,
    });
    output = JSON.parse(stdout) as ProbeOutput;
  } catch (err) {
    if (notStarted(err)) throw new FfmpegUnavailableError(bin.ffprobe, err);
    throw new NotAVideoError((err as Error).message.split('\n').slice(-2).join(' ').trim() || 'unreadable');
  }
  const video = output.streams?.find((s) => s.codec_type === 'video');
  if (!video?.width || !video.height) throw new NotAVideoError('no video stream');
  const audio = output.streams?.find((s) => s.codec_type === 'audio');
  const durationS = Number(output.format?.duration ?? video.duration);
  if (!Number.isFinite(durationS) || durationS <= 0) throw new NotAVideoError('no duration');
  return {
    durationS,
    width: video.width,
    height: video.height,
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
    formatName: output.format?.format_name ?? 'unknown',
  };
}

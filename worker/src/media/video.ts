import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { VIDEO_LIMITS } from '@tribuna/contracts/wallRules';

// Video clips (issue 30): probing and transcoding with FFmpeg, run by the worker only, never in a
// request. The binaries come from the project's own install (@ffmpeg-installer and
// @ffprobe-installer ship them inside registry packages) unless FFMPEG_PATH / FFPROBE_PATH name
// others (a system build).

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

/** FFMPEG_PATH / FFPROBE_PATH, else the binaries of the installer packages. */
export function ffmpegBinaries(env: NodeJS.ProcessEnv = process.env): FfmpegBinaries {
  const fromPackage = (name: string) => (require(name) as { path: string }).path;
  return {
    ffmpeg: env.FFMPEG_PATH || fromPackage('@ffmpeg-installer/ffmpeg'),
    ffprobe: env.FFPROBE_PATH || fromPackage('@ffprobe-installer/ffprobe'),
  };
}

/** A missing or broken FFmpeg, told plainly (at the worker's start, and to a job that needs it). */
export class FfmpegUnavailableError extends Error {
  constructor(binary: string, cause: unknown) {
    super(
      `FFmpeg is not usable (${binary}): ${(cause as Error).message?.split('\n')[0] ?? String(cause)}. Set FFMPEG_PATH and FFPROBE_PATH to a working build.`,
    );
    this.name = 'FfmpegUnavailableError';
  }
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

/** Duration, size and codecs of a file, read before any work is done on it. */
export async function probeVideo(file: string, bin: FfmpegBinaries = ffmpegBinaries()): Promise<VideoProbe> {
  let output: ProbeOutput;
  try {
    const { stdout } = await run(bin.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      timeout: 30_000,
      maxBuffer: 4 * 1024 * 1024,
    });
    output = JSON.parse(stdout) as ProbeOutput;
  } catch (err) {
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

export interface TranscodedVideo {
  /** H.264/AAC MP4, at most VIDEO_LIMITS.maxHeight lines, `faststart`, metadata stripped. */
  mp4: string;
  /** The poster frame, WebP. */
  poster: string;
  width: number;
  height: number;
  durationS: number;
  /** ThumbHash of the poster, base64. */
  placeholder: string;
}

/**
 * Transcodes `input` into `outDir` (video.mp4 and poster.webp): H.264 (yuv420p, at most 720 lines,
 * even dimensions) and AAC, the moov atom first so playback starts before the download ends, no
 * metadata (location, device); then a poster frame and its ThumbHash. Killed past `timeoutMs`.
 */
export async function transcodeVideo(
  input: string,
  outDir: string,
  { timeoutMs = VIDEO_LIMITS.transcodeTimeoutMs, bin = ffmpegBinaries() }: { timeoutMs?: number; bin?: FfmpegBinaries } = {},
): Promise<TranscodedVideo> {
  const probe = await probeVideo(input, bin);
  const mp4 = join(outDir, 'video.mp4');
  const posterPng = join(outDir, 'poster.png');
  const poster = join(outDir, 'poster.webp');
  const scale = `scale=-2:'min(${VIDEO_LIMITS.maxHeight},trunc(ih/2)*2)'`;
  await run(
    bin.ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-i',
      input,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-vf',
      scale,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      '-movflags',
      '+faststart',
      mp4,
    ],
    { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024 },
  );
  const at = Math.min(1, probe.durationS / 2).toFixed(2);
  await run(bin.ffmpeg, ['-v', 'error', '-y', '-ss', at, '-i', mp4, '-frames:v', '1', posterPng], { timeout: 60_000, killSignal: 'SIGKILL' });
  const image = sharp(posterPng);
  const { width, height } = await image.metadata();
  await image.clone().webp({ quality: 80 }).toFile(poster);
  const small = await image.clone().resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const placeholder = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
  const out = await probeVideo(mp4, bin);
  return { mp4, poster, width: width ?? out.width, height: height ?? out.height, durationS: out.durationS, placeholder };
}

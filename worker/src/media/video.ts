import { existsSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess, type PromiseWithChild } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { VIDEO_LIMITS } from '@tribuna/contracts/wallRules';
import { ffmpegBinaries, probeVideo, type FfmpegBinaries } from '../../../server/src/media/videoProbe.ts';
import { yieldWhileBusy, type CpuYield } from './cpuYield.ts';

export {
  checkFfmpeg,
  FfmpegUnavailableError,
  ffmpegBinaries,
  NotAVideoError,
  probeVideo,
  type FfmpegBinaries,
  type VideoProbe,
} from '../../../server/src/media/videoProbe.ts';

// Video clips (issue 30): transcoding with FFmpeg, run by the worker only, never in a request.
// Finding the binaries and probing a clip live in server/src/media/videoProbe.ts (the server probes
// uploads too); they are re-exported here for the worker.

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
 * Scheduling priority of the FFmpeg children (0 normal, 19 lowest): a transcode takes whatever CPU
 * the request paths leave (the votes keep their rate on a 2-core machine), not a share of it. At 10
 * (with FFmpeg's own threads, one per core and more) the votes bench kept 0.73× its rate while a
 * 720p clip transcoded; see TRANSCODE_THREADS.
 */
export const TRANSCODE_NICENESS = 19;
/**
 * Threads of the decoder and the encoder: one, so a transcode never occupies more than one core
 * whatever the machine, and the request paths always keep the others.
 */
export const TRANSCODE_THREADS = 1;

/**
 * The FFmpeg children running now. A worker that stops exits within seconds (its forced exit) even
 * mid-transcode: they are killed with it, not left to run minutes alone (the job is taken over).
 */
const children = new Set<ChildProcess>();
let killedOnExit = false;

function killOnExit(child: ChildProcess): void {
  if (!killedOnExit) {
    killedOnExit = true;
    process.on('exit', () => {
      for (const c of children) c.kill('SIGKILL');
    });
  }
  children.add(child);
  child.once('close', () => children.delete(child));
}

/** util-linux's chrt (Debian and most Linux images have it), to run FFmpeg in the idle scheduling class. */
const CHRT = ['/usr/bin/chrt', '/bin/chrt'].find((path) => existsSync(path)) ?? null;
/** util-linux's setpriv, to give each child a parent-death signal (it execs the command: same pid). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path)) ?? null;

/** Whether this machine has /proc/stat (Linux): where a niced child yields to a busy machine. */
const PROC_STAT = existsSync('/proc/stat');

function startYielding(pid: number): CpuYield | null {
  try {
    return yieldWhileBusy(pid);
  } catch {
    return null; // Exited already, or /proc unreadable: it runs niced only.
  }
}

/** What runNiced takes of execFile's options. */
export interface NicedOptions {
  /** Killed with killSignal past this many milliseconds (the promise rejects). */
  timeout?: number;
  killSignal?: NodeJS.Signals;
  /** Bytes of stdout or stderr kept at most (default 1 MiB); beyond it the child is killed. */
  maxBuffer?: number;
  /**
   * A niced child yields to a busy machine (cpuYield.ts: stopped for most of each period while the
   * other processes keep the cores busy); its time limit does not count the time it spent stopped.
   * Default: on for a niced child where /proc is.
   */
  yieldWhileBusy?: boolean;
}

/** A child that failed: its exit code or signal and what it wrote. */
export class ChildFailedError extends Error {
  constructor(
    readonly file: string,
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stdout: string,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    const tail = stderr.trim().split('\n').slice(-3).join(' ');
    super(`${file} ${timedOut ? 'timed out' : `exited with ${code ?? signal}`}${tail ? `: ${tail}` : ''}`);
    this.name = 'ChildFailedError';
  }
}

/**
 * Runs `file` like execFile (its output collected, a time limit), at `niceness`, dying with this
 * process. A niced child gets a session of its own (setsid): on Linux with autogroup scheduling
 * (the default of many kernels, this machine's included) a process's niceness only counts against
 * its own session's processes, so FFmpeg niced inside the worker's session still took a full share
 * against the server's and PostgreSQL's sessions (the votes bench kept 0.78× its rate while a clip
 * transcoded). Its session's autogroup is niced as well. Both are set right after the spawn; a
 * child already gone is left alone.
 *
 * While the rest of the machine is busy a niced child also yields in bursts (cpuYield.ts), and its
 * time limit counts only the time it could run. Every child dies with the worker even when the
 * worker is killed outright (setpriv's parent-death signal, where util-linux has it).
 */
export function runNiced(file: string, args: string[], options: NicedOptions, niceness: number): PromiseWithChild<{ stdout: string; stderr: string }> {
  // Linux's idle scheduling class where util-linux's chrt is found (it execs the command: same pid):
  // any request-path thread waking on its core preempts it at once, instead of waiting for the end
  // of its time slice as it would behind a merely niced process.
  let command = [file, ...args];
  if (niceness !== 0 && CHRT !== null) command = [CHRT, '--idle', '0', ...command];
  // Killed by the kernel if the worker dies outright (SIGKILL, a crash): a child in a session of its
  // own is never hung up with it, and one stopped by the CPU governor would stay stopped forever.
  if (SETPRIV !== null) command = [SETPRIV, '--pdeathsig', 'KILL', ...command];
  const child = spawn(command[0]!, command.slice(1), { detached: niceness !== 0, stdio: ['pipe', 'pipe', 'pipe'] });
  killOnExit(child);
  const pid = child.pid;
  if (pid !== undefined && niceness !== 0) {
    try {
      setPriority(pid, niceness);
    } catch {
      // Exited already (ESRCH), or not permitted: it runs at the normal priority.
    }
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(niceness));
    } catch {
      // No autogroup scheduling (another OS, or disabled), or exited already: the niceness above is what counts.
    }
  }
  const { timeout, killSignal = 'SIGTERM', maxBuffer = 1024 * 1024 } = options;
  const governor = pid !== undefined && niceness !== 0 && (options.yieldWhileBusy ?? PROC_STAT) ? startYielding(pid) : null;
  const promise = new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    // The time limit counts the time the child could run: a child stopped while the machine was busy gets that time back.
    const started = performance.now();
    const expire = () => {
      const left = started + timeout! + (governor?.stoppedMs() ?? 0) - performance.now();
      if (left > 0) timer = setTimeout(expire, left);
      else {
        timedOut = true;
        governor?.release();
        child.kill(killSignal);
      }
    };
    let timer = timeout ? setTimeout(expire, timeout) : null;
    const keep = (current: string, chunk: string) => {
      if (current.length + chunk.length > maxBuffer) child.kill(killSignal);
      return (current + chunk).slice(0, maxBuffer);
    };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout = keep(stdout, chunk)));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = keep(stderr, chunk)));
    child.once('error', (err) => {
      if (timer) clearTimeout(timer);
      governor?.release();
      reject(err);
    });
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      governor?.release();
      if (code === 0 && !timedOut) resolve({ stdout, stderr });
      else reject(new ChildFailedError(file, code, signal, stdout, stderr, timedOut));
    });
  });
  return Object.assign(promise, { child });
}

/**
 * Transcodes `input` into `outDir` (video.mp4 and poster.webp): H.264 (yuv420p, at most 720 lines,
 * even dimensions) and AAC, the moov atom first so playback starts before the download ends, no
 * metadata (location, device); then a poster frame and its ThumbHash. Killed past `timeoutMs`.
 */
export async function transcodeVideo(
  input: string,
  outDir: string,
  {
    timeoutMs = VIDEO_LIMITS.transcodeTimeoutMs,
    bin = ffmpegBinaries(),
    niceness = TRANSCODE_NICENESS,
    yieldWhileBusy,
  }: { timeoutMs?: number; bin?: FfmpegBinaries; niceness?: number; yieldWhileBusy?: boolean } = {},
): Promise<TranscodedVideo> {
  const niced = (file: string, args: string[], options: NicedOptions) => runNiced(file, args, { ...options, yieldWhileBusy }, niceness);
  const probe = await probeVideo(input, bin);
  const mp4 = join(outDir, 'video.mp4');
  const posterPng = join(outDir, 'poster.png');
  const poster = join(outDir, 'poster.webp');
  const scale = `scale=-2:'min(${VIDEO_LIMITS.maxHeight},trunc(ih/2)*2)'`;
  await niced(
    bin.ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-threads',
      String(TRANSCODE_THREADS),
      '-i',
      input,
      '-threads',
      String(TRANSCODE_THREADS),
      '-filter_threads',
      String(TRANSCODE_THREADS),
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
  await niced(bin.ffmpeg, ['-v', 'error', '-y', '-ss', at, '-i', mp4, '-frames:v', '1', posterPng], { timeout: 60_000, killSignal: 'SIGKILL' });
  const image = sharp(posterPng);
  const { width, height } = await image.metadata();
  await image.clone().webp({ quality: 80 }).toFile(poster);
  const small = await image.clone().resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const placeholder = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
  const out = await probeVideo(mp4, bin);
  return { mp4, poster, width: width ?? out.width, height: height ?? out.height, durationS: out.durationS, placeholder };
}

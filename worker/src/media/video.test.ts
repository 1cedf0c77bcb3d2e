import { existsSync } from 'node:fs';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFfmpeg, FfmpegUnavailableError, ffmpegBinaries, NotAVideoError, probeVideo, runNiced, TRANSCODE_NICENESS, transcodeVideo } from './video.ts';

const run = promisify(execFile);

/** The top-level MP4 boxes of a file, in order (ftyp, moov, mdat…). */
async function topLevelBoxes(file: string): Promise<string[]> {
  const data = await readFile(file);
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= data.length;) {
    let size = data.readUInt32BE(at);
    boxes.push(data.toString('latin1', at + 4, at + 8));
    if (size === 1) size = Number(data.readBigUInt64BE(at + 8));
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

describe('video clips through FFmpeg (the worker)', () => {
  const bin = ffmpegBinaries();
  let dir: string;
  let clip: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tribuna-video-test-'));
    clip = join(dir, 'clip.mov');
    // A 1280×960 test pattern with a tone and a title in its metadata, 3 s.
    await run(bin.ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=3:size=1280x960:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=3',
      '-metadata',
      'title=Ubicación secreta',
      '-c:v',
      'mpeg4',
      '-c:a',
      'aac',
      '-shortest',
      clip,
    ]);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the installed binaries working, and names a broken one plainly', async () => {
    const versions = await checkFfmpeg(bin);
    expect(versions.ffmpeg).toMatch(/^ffmpeg version/);
    expect(versions.ffprobe).toMatch(/^ffprobe version/);
    await expect(checkFfmpeg({ ...bin, ffmpeg: join(dir, 'no-such-ffmpeg') })).rejects.toBeInstanceOf(FfmpegUnavailableError);
  });

  it('probes duration, size and codecs before any work', async () => {
    const probe = await probeVideo(clip, bin);
    expect(probe).toMatchObject({ width: 1280, height: 960, videoCodec: 'mpeg4', audioCodec: 'aac' });
    expect(probe.durationS).toBeGreaterThan(2.9);
    expect(probe.durationS).toBeLessThan(3.2);
  });

  it('refuses a file that is not a video, whatever its name', async () => {
    const fake = join(dir, 'not-a-video.mp4');
    await writeFile(fake, 'this is text, not a video');
    await expect(probeVideo(fake, bin)).rejects.toBeInstanceOf(NotAVideoError);
    const still = join(dir, 'still.mp4');
    await writeFile(
      still,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    await expect(probeVideo(still, bin)).rejects.toBeInstanceOf(NotAVideoError);
  });

  it('runs FFmpeg at a low priority: the request paths keep the CPU they need', async () => {
    expect(TRANSCODE_NICENESS).toBeGreaterThanOrEqual(10);
    // The child waits for a line before telling its niceness: set by then, whatever the timing.
    const running = runNiced('sh', ['-c', 'read line; nice'], {}, TRANSCODE_NICENESS);
    running.child.stdin!.end('go\n');
    expect((await running).stdout.trim()).toBe(String(TRANSCODE_NICENESS));
  });

  it('runs FFmpeg in a session of its own whose autogroup is niced too (where the kernel schedules by autogroup)', async () => {
    // The child reports its session and its autogroup once told to (set by then, whatever the timing).
    const running = runNiced('sh', ['-c', 'read line; ps -o sid= -p $$; cat /proc/self/autogroup 2>/dev/null || echo none'], {}, TRANSCODE_NICENESS);
    const pid = running.child.pid!;
    running.child.stdin!.end('go\n');
    const [session, autogroup] = (await running).stdout.trim().split('\n');
    expect(Number(session)).toBe(pid);
    expect(Number(session)).not.toBe(process.pid);
    let enabled = '0';
    try {
      enabled = (await readFile('/proc/sys/kernel/sched_autogroup_enabled', 'utf8')).trim();
    } catch {
      // Not Linux, or no autogroup: the session and the niceness are what can be checked.
    }
    if (enabled === '1') expect(autogroup).toMatch(new RegExp(`nice ${TRANSCODE_NICENESS}$`));
  });

  it('runs FFmpeg in the idle scheduling class where chrt is found (preempted at once by the request paths)', async () => {
    const chrt = ['/usr/bin/chrt', '/bin/chrt'].find((path) => existsSync(path));
    const running = runNiced('sh', ['-c', 'read line; chrt -p $$'], {}, TRANSCODE_NICENESS);
    running.child.stdin!.end('go\n');
    const { stdout } = await running;
    if (chrt) expect(stdout).toMatch(/scheduling policy: SCHED_IDLE/);
    else expect(stdout).not.toMatch(/SCHED_IDLE/);
  });

  it('kills its FFmpeg children when the worker exits (a forced stop mid-transcode), never leaving them running alone', async () => {
    const script = [
      `import { runNiced } from ${JSON.stringify(fileURLToPath(new URL('./video.ts', import.meta.url)))};`,
      `const running = runNiced('sleep', ['60'], {}, 0);`,
      'running.catch(() => undefined);',
      'console.log(running.child.pid);',
      'process.exit(0);',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 });
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    // Gone, or a zombie nobody reaped yet (a container's pid 1 may not): no longer running either way.
    const state = async () => (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '0 (gone) X')).split(') ')[1]![0];
    await expect.poll(state).toMatch(/[XZ]/);
  });

  it('never leaves a stopped FFmpeg behind when the worker is killed outright while it yields', async () => {
    // The child is stopped as the CPU governor stops it on a busy machine, then the worker dies
    // without running any handler: its process group, a session of its own, is orphaned with a
    // stopped member, so the kernel hangs it up and continues it (POSIX), and it ends.
    const script = [
      `import { runNiced, TRANSCODE_NICENESS } from ${JSON.stringify(fileURLToPath(new URL('./video.ts', import.meta.url)))};`,
      `const running = runNiced('sleep', ['60'], { yieldWhileBusy: false }, TRANSCODE_NICENESS);`,
      'running.catch(() => undefined);',
      "process.kill(running.child.pid, 'SIGSTOP');",
      'console.log(running.child.pid);',
      "process.kill(process.pid, 'SIGKILL');",
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    await new Promise((resolve) => child.once('close', resolve));
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    const state = async () => (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '0 (gone) X')).split(') ')[1]![0];
    await expect.poll(state).toMatch(/[XZ]/);
  });

  it('transcodes to H.264/AAC at most 720 lines, moov first, metadata stripped, with a WebP poster and its ThumbHash', async () => {
    const out = await mkdtemp(join(dir, 'out-'));
    // At normal priority: the test run keeps every core busy, and an idle-class FFmpeg would wait for a free one.
    const result = await transcodeVideo(clip, out, { bin, yieldWhileBusy: false, niceness: 0 });
    const probe = await probeVideo(result.mp4, bin);
    expect(probe).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', height: 720, width: 960 });
    expect(result).toMatchObject({ width: 960, height: 720 });
    expect(result.durationS).toBeGreaterThan(2.9);
    const boxes = await topLevelBoxes(result.mp4);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const { stdout } = await run(bin.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', result.mp4]);
    expect(JSON.stringify(JSON.parse(stdout).format.tags ?? {})).not.toContain('Ubicación secreta');
    const poster = await sharp(result.poster).metadata();
    expect([poster.format, poster.width, poster.height]).toEqual(['webp', 960, 720]);
    expect(Buffer.from(result.placeholder, 'base64').length).toBeGreaterThan(5);
    expect((await stat(result.mp4)).size).toBeGreaterThan(10_000);
  });
});

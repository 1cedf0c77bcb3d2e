// Progress lines on stdout, with the seconds since the benchmark started.
const started = Date.now();

export function log(message: string): void {
  const s = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[bench ${s}s] ${message}\n`);
}

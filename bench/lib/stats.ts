// Histograms (hdr-histogram-js, microseconds inside, milliseconds outside) and round medians.
import * as hdr from 'hdr-histogram-js';

export type Histogram = hdr.Histogram;

/** Latencies in microseconds, 1 µs .. 1 h, 3 significant digits. */
export function newHistogram(): Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
}

export function recordMs(h: Histogram, ms: number, count = 1): void {
  const us = Math.max(1, Math.round(ms * 1000));
  if (count === 1) h.recordValue(us);
  else if (count > 1) h.recordValueWithCount(us, count);
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  meanMs: number;
}

const ms = (us: number) => Math.round(us) / 1000;

export function summarize(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { count: 0, p50Ms: NaN, p90Ms: NaN, p99Ms: NaN, p999Ms: NaN, maxMs: NaN, meanMs: NaN };
  return {
    count: h.totalCount,
    p50Ms: ms(h.getValueAtPercentile(50)),
    p90Ms: ms(h.getValueAtPercentile(90)),
    p99Ms: ms(h.getValueAtPercentile(99)),
    p999Ms: ms(h.getValueAtPercentile(99.9)),
    maxMs: ms(h.maxValue),
    meanMs: ms(h.mean),
  };
}

export function encode(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decode(base64: string): Histogram {
  return hdr.decodeFromCompressedBase64(base64);
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The element whose `key` is the median (the lower middle for an even count). */
export function medianBy<T>(items: T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export const round = (x: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Standard deviation of `values` (population) / their mean. */
export function coefficientOfVariation(values: number[]): number {
  const m = mean(values);
  return Math.sqrt(mean(values.map((v) => (v - m) ** 2))) / m;
}

/** Least-squares line through (1, y1) … (n, yn): its values at the first and the last point. */
export function fittedEnds(values: number[]): { first: number; last: number } {
  const n = values.length;
  if (n < 2) return { first: values[0] ?? 0, last: values[0] ?? 0 };
  const meanX = (n + 1) / 2;
  const meanY = mean(values);
  let num = 0;
  let den = 0;
  values.forEach((y, i) => {
    num += (i + 1 - meanX) * (y - meanY);
    den += (i + 1 - meanX) ** 2;
  });
  const slope = num / den;
  return { first: meanY + slope * (1 - meanX), last: meanY + slope * (n - meanX) };
}

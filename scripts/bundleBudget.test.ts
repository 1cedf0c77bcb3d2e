import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** Compressed JavaScript a phone may download to show the home poll (issue: a fan's first load). */
export const HOME_JS_BUDGET_BYTES = 110 * 1024;

const DIST = join(import.meta.dirname, '..', 'web', 'dist');

/** The scripts index.html loads before anything renders: its module entry and every modulepreload. */
export function homeScripts(indexHtml: string): string[] {
  const scripts = [...indexHtml.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  const preloads = [...indexHtml.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  return [...new Set([...scripts, ...preloads])];
}

/** The brotli size the server sends (the build's .br beside the file, else compressed here the same way). */
function brotliBytes(path: string): number {
  if (existsSync(`${path}.br`)) return readFileSync(`${path}.br`).length;
  return brotliCompressSync(readFileSync(path), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

describe('web bundle budget', () => {
  it(`keeps the home route's JavaScript within ${HOME_JS_BUDGET_BYTES / 1024} KB compressed (brotli)`, () => {
    const index = join(DIST, 'index.html');
    // npm test builds the web app before the tests (scripts/test.sh).
    expect(existsSync(index), 'web/dist/index.html is missing: run `npm run build` first').toBe(true);
    const scripts = homeScripts(readFileSync(index, 'utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    const sizes = Object.fromEntries(scripts.map((src) => [src, brotliBytes(join(DIST, src))]));
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    expect(total, `home JavaScript is ${(total / 1024).toFixed(1)} KB brotli: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
  });

  it('finds the entry script and the preloaded chunks of an index.html', () => {
    const html = '<script type="module" crossorigin src="/assets/index-a.js"></script><link rel="modulepreload" crossorigin href="/assets/vendor-b.js">';
    expect(homeScripts(html)).toEqual(['/assets/index-a.js', '/assets/vendor-b.js']);
  });
});

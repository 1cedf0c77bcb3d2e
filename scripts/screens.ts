// `tsx scripts/screens.ts --base URL [--as USER_ID] [--out DIR] PATH…`: screenshots of each page in
// Debian's Chromium, dark and light, at phone and desktop sizes, and an axe-core scan of each.
// Prints the serious and critical violations (exit code 1 when there are any). Signs in through the
// development sign-in (`--as`), so it runs against a server with DEV_LOGIN on.
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from './chromium.ts';

const THEME_STORAGE_KEY = 'tribuna-theme';
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      base: { type: 'string', default: 'http://localhost:3000' },
      as: { type: 'string' },
      out: { type: 'string', default: '/tmp/shots' },
      themes: { type: 'string', default: 'dark,light' },
      sizes: { type: 'string', default: 'phone,desktop' },
      wait: { type: 'string', default: '800' },
    },
  });
  const paths = positionals.length ? positionals : ['/'];
  await mkdir(values.out, { recursive: true });
  const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  let failures = 0;
  try {
    for (const size of values.sizes.split(',') as (keyof typeof VIEWPORTS)[]) {
      for (const theme of values.themes.split(',')) {
        const context = await browser.newContext({ viewport: VIEWPORTS[size], reducedMotion: 'reduce' });
        await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [THEME_STORAGE_KEY, theme] as const);
        if (values.as) {
          const answer = await context.request.post(`${values.base}/api/auth/dev/login`, {
            headers: { 'x-requested-with': 'tribuna' },
            data: { userId: values.as },
          });
          if (!answer.ok()) throw new Error(`dev sign-in failed: ${answer.status()} ${await answer.text()}`);
        }
        const page = await context.newPage();
        for (const target of paths) {
          await page.goto(`${values.base}${target}`, { waitUntil: 'networkidle' });
          await page.waitForTimeout(Number(values.wait));
          const name = `${target.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${size}-${theme}.png`;
          await page.screenshot({ path: path.join(values.out, name), fullPage: true });
          await page.evaluate(axeSource);
          const violations = (await page.evaluate(async () => {
            const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe;
            return (await axe.run(document, { resultTypes: ['violations'] })).violations;
          })) as AxeViolation[];
          const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          failures += serious.length;
          console.log(`${name}: ${serious.length ? 'FAIL' : 'ok'} (${violations.length} violations, ${serious.length} serious/critical)`);
          for (const v of serious)
            console.log(
              `  ${v.impact} ${v.id}: ${v.help} — ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 5)
                .join(' | ')}`,
            );
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  process.exit(failures ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});

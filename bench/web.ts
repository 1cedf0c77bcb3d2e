// `npm run bench -- web`: a fan's first load on a phone. Builds the web app, starts the production
// server and worker behind a local TLS terminator (Chrome only asks for brotli over HTTPS, and the
// production CSP upgrades insecure requests), then runs Lighthouse (mobile preset: simulated slow
// 4G and a 4× slower CPU) in the Debian Chromium on /, /login and /terminos, 3 runs each, and
// reports the medians and the compressed JavaScript the home page downloads.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS } from '../scripts/chromium.ts';
import { freePort } from '../scripts/infra.ts';
import { createBenchEnv, destroyBenchEnv, startTribuna, type Tribuna } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { ROOT } from './lib/processes.ts';
import type { BenchOutcome } from './votes.ts';

export interface WebOptions {
  pages: string[];
  runs: number;
}

export const DEFAULT_WEB_OPTIONS: WebOptions = { pages: ['/', '/login', '/terminos'], runs: 3 };

/** The targets for `/`. */
const TARGETS = { homeJsKB: 110, performance: 0.9, lcpMs: 2500, cls: 0.1, tbtMs: 200 };

const CHROME_FLAGS = [
  ...CHROMIUM_FLAGS,
  // The local TLS terminator's certificate is self-signed.
  '--ignore-certificate-errors',
];

interface PageRun {
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  /** Bytes of JavaScript transferred (compressed, as sent) while loading the page. */
  jsTransferBytes: number;
  /** Each script loaded: path and bytes transferred. */
  scripts: { path: string; transferBytes: number }[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** A self-signed certificate for 127.0.0.1 (openssl), valid one day. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tribuna-web-bench-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    return { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** HTTPS on `port` forwarding to the plain HTTP server on `upstreamPort` (requests and websocket upgrades), as a load balancer would. */
function tlsTerminator(port: number, upstreamPort: number): Promise<https.Server> {
  const server = https.createServer(selfSignedCertificate(), (req, res) => {
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': '127.0.0.1' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const upstream = net.connect(upstreamPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    for (const s of [socket, upstream]) s.on('error', () => (socket.destroy(), upstream.destroy()));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** measure(), again after a Lighthouse trace failure (NO_NAVSTART and the like happen now and then in headless Chromium). */
async function measureWithRetry(url: string, chromePort: number, attempts = 3): Promise<PageRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, chromePort);
    } catch (err) {
      if (attempt >= attempts) throw err;
      log(`web: ${url}: ${(err as Error).message}; measuring again`);
    }
  }
}

async function measure(url: string, chromePort: number): Promise<PageRun> {
  const result = await lighthouse(url, { port: chromePort, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests =
    (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  return {
    performance: lhr.categories.performance?.score ?? 0,
    lcpMs: audit('largest-contentful-paint'),
    cls: audit('cumulative-layout-shift'),
    tbtMs: audit('total-blocking-time'),
    fcpMs: audit('first-contentful-paint'),
    jsTransferBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    scripts: scripts.map((r) => ({ path: new URL(r.url).pathname, transferBytes: r.transferSize ?? 0 })),
  };
}

export async function runWebBenchmark(options: WebOptions = DEFAULT_WEB_OPTIONS): Promise<BenchOutcome> {
  log('web: building the web app');
  execFileSync('npm', ['run', 'build', '-w', 'web', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  const env = await createBenchEnv('_web');
  let tribuna: Tribuna | null = null;
  let proxy: https.Server | null = null;
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  try {
    const publicPort = await freePort();
    tribuna = await startTribuna(env, { publicPort });
    proxy = await tlsTerminator(publicPort, tribuna.port);
    chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });

    const pages: Record<string, Omit<PageRun, 'scripts'> & { scripts: PageRun['scripts']; runs: Omit<PageRun, 'scripts'>[] }> = {};
    for (const page of options.pages) {
      const url = `https://127.0.0.1:${publicPort}${page}`;
      // One load first so the server's caches and the OS page cache are warm, as for a fan arriving mid-episode.
      await measureWithRetry(url, chrome.port);
      const runs: PageRun[] = [];
      for (let i = 0; i < options.runs; i++) runs.push(await measureWithRetry(url, chrome.port));
      const pick = <K extends Exclude<keyof PageRun, 'scripts'>>(key: K) => median(runs.map((r) => r[key]));
      pages[page] = {
        performance: pick('performance'),
        lcpMs: Math.round(pick('lcpMs')),
        cls: Number(pick('cls').toFixed(4)),
        tbtMs: Math.round(pick('tbtMs')),
        fcpMs: Math.round(pick('fcpMs')),
        jsTransferBytes: pick('jsTransferBytes'),
        scripts: runs[0]!.scripts,
        runs: runs.map(({ scripts: _scripts, ...rest }) => rest),
      };
      log(`web: ${page}: performance ${pages[page].performance}, LCP ${pages[page].lcpMs} ms, CLS ${pages[page].cls}, TBT ${pages[page].tbtMs} ms`);
    }

    const home = pages['/']!;
    const homeJsKB = Number((home.jsTransferBytes / 1024).toFixed(1));
    const failures: string[] = [];
    const met = {
      homeJsKB: homeJsKB <= TARGETS.homeJsKB,
      performance: home.performance >= TARGETS.performance,
      lcpMs: home.lcpMs < TARGETS.lcpMs,
      cls: home.cls < TARGETS.cls,
      tbtMs: home.tbtMs < TARGETS.tbtMs,
    };
    const json = {
      measuredAt: new Date().toISOString(),
      machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
      method:
        'Lighthouse (npm lighthouse, default mobile preset: simulated slow 4G, 4x CPU slowdown) in /usr/bin/chromium headless, performance category only; one warm-up load then the median of `runs` loads per page. Production server and worker (NODE_ENV=production) behind a local TLS terminator, so Chrome negotiates brotli and the CSP is the production one. homeJsKB: compressed bytes of every script the home page transferred.',
      runs: options.runs,
      homeJsKB,
      performance: home.performance,
      lcpMs: home.lcpMs,
      cls: home.cls,
      tbtMs: home.tbtMs,
      targets: TARGETS,
      met,
      pages,
    };
    const table: [string, string][] = [
      ['/ JavaScript (compressed)', `${homeJsKB} KB (target ≤ ${TARGETS.homeJsKB})`],
      ...options.pages.map((page): [string, string] => {
        const p = pages[page]!;
        return [page, `performance ${p.performance}, LCP ${p.lcpMs} ms, CLS ${p.cls}, TBT ${p.tbtMs} ms, FCP ${p.fcpMs} ms`];
      }),
      [
        'targets for /',
        Object.entries(met)
          .map(([k, v]) => `${k} ${v ? 'met' : 'missed'}`)
          .join(', '),
      ],
    ];
    return { name: 'web', json, table, failures };
  } finally {
    await chrome?.kill();
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await tribuna?.stop();
    await destroyBenchEnv(env);
  }
}

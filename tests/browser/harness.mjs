// Shared pieces of the browser tests and the page benchmark: a static server for build/web on
// 127.0.0.1 (a free port; the headers of scripts/security-headers.json, so the page runs under the
// same Content-Security-Policy as with `make run`), and headless Chromium (Debian's) through
// playwright-core, with the flags that keep it off the network. Every page gets a
// console/pageerror collector.
import { createServer } from 'node:http';
import { before, after } from 'node:test';
import { readFile, mkdtemp, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, normalize, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';

export const ROOT = resolve(new URL('../..', import.meta.url).pathname);
export const WEB = process.env.ROOFLAB_WEB || join(ROOT, 'build/web');
export const ARTIFACTS = join(ROOT, 'test-artifacts');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json',
  '.map': 'application/json',
};

// The page's response headers (CSP and the rest), the same as `make run`'s server sends.
export const SECURITY_HEADERS = JSON.parse(await readFile(join(ROOT, 'scripts/security-headers.json'), 'utf8')).headers;

// Serves `dir` with SECURITY_HEADERS on every response; returns { url, close, bytesServed() }.
export async function serve(dir = WEB) {
  let served = 0;
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
      if (!file.startsWith(dir)) throw new Error('outside');
      const body = await readFile(file);
      served += body.length;
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    bytesServed: () => served,
    resetBytes: () => { served = 0; },
    close: () => new Promise((ok) => server.close(ok)),
  };
}

export async function launch() {
  const userDataDir = await mkdtemp(join(tmpdir(), 'rooflab-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => { await context.close(); await rm(userDataDir, { recursive: true, force: true }); },
  };
}

// One static server and one Chromium for a test file (registered as its before/after hooks), the
// artifacts folder made, and a scratch folder when `scratch` names one (removed after):
//   const env = pageEnv({ scratch: 'records' });  … env.server.url, env.browser.context, env.tmp
export function pageEnv({ scratch = null } = {}) {
  const env = { server: null, browser: null, tmp: null };
  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    if (scratch) {
      env.tmp = join(tmpdir(), `rooflab-${scratch}-${process.pid}`);
      await mkdir(env.tmp, { recursive: true });
    }
    env.server = await serve();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
    if (env.tmp) await rm(env.tmp, { recursive: true, force: true });
  });
  return env;
}

// A new page that records console errors/warnings and page errors into page.rlErrors.
export async function openPage(context, url, { width = 1280, height = 800, colorScheme = 'light' } = {}) {
  const page = await context.newPage();
  page.rlErrors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.rlErrors.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => page.rlErrors.push(`pageerror: ${err.message}`));
  // a request the page's own navigation cut short (page.goto while the zoom plugin loads on first
  // use) is not a failure; any other network error is
  page.on('requestfailed', (req) => {
    if (/ERR_ABORTED/.test(req.failure()?.errorText || '')) return;
    page.rlErrors.push(`requestfailed: ${req.url()}`);
  });
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="1"]', { timeout: 20000 });
  return page;
}

// Moves the pointer onto one roofline mark and waits for its tooltip: point `index` of the first
// dataset of rlKind `kind` (its marks, not a ceiling line), of that `label` when one is given.
export async function hoverMark(page, { kind, label = null, index = 0 }) {
  const at = await page.evaluate(({ k, l, n }) => window.rooflab.markAt('roofline', { kind: k, label: l, index: n }), { k: kind, l: label, n: index });
  const pos = { x: at.x, y: at.y };
  await page.mouse.move(pos.x, pos.y);
  await page.waitForFunction(() => window.rooflab.chart('roofline', { points: false }).tooltip.opacity > 0);
  return pos;
}

// Everything the page keeps in this browser removed: localStorage (settings, and records as older
// versions kept them) and the records' IndexedDB database (the page closes its connection when
// asked, so the deletion is not blocked). Reload the page after it. The page's restore of what was
// kept is let finish first (the page is ready before it ends; a reload meanwhile would cut off the
// checking workers' module loads).
// Resolves once the page's records are idle (none being read, checked or added).
export const recordsIdle = (page) => page.waitForSelector('[data-testid="records-status"][data-value="idle"]', { state: 'attached', timeout: 60000 });

export async function clearStored(page) {
  await page.waitForSelector('[data-testid="records-status"][data-value="idle"]', { state: 'attached', timeout: 120000 });
  return page.evaluate(() => {
    localStorage.clear();
    return new Promise((done, fail) => {
      const q = indexedDB.deleteDatabase('rooflab');
      q.onsuccess = () => done();
      q.onerror = () => fail(q.error);
      q.onblocked = () => done(); // deleted once the page's connection closes (on reload)
    });
  });
}

// The import form's answers as `rooflab import` flags (empty = not given; causal yes a switch),
// for the tests that compare a page import with the CLI's.
export async function answersAsFlags(page, i) {
  const answers = await page.$$eval(`[data-testid="record-${i}"] [data-testid^="import-"]`, (els) => els
    .filter((e) => e.name)
    .map((e) => [e.name, e.value]));
  const flags = [];
  for (const [flag, v] of answers) {
    if (v === '') continue;
    if (flag === 'causal') { // a choice in the form (yes / no), a switch in the CLI
      if (v === 'true') flags.push('--causal');
      continue;
    }
    else flags.push(`--${flag}`, v);
  }
  return flags;
}

// Answers an import form as a person would: a text typed, a choice picked (causal: 'true' or
// 'false'); a field the file supplies (shown locked) is left as the file says. scope: a selector
// of the file's list item.
export async function answerForm(page, scope, answers) {
  for (const [flag, v] of Object.entries(answers)) {
    const sel = `${scope} [data-testid="import-${flag}"]`;
    const [tag, locked] = await page.$eval(sel, (e) => [e.tagName, e.readOnly || e.disabled]);
    if (locked) continue;
    if (tag === 'SELECT') await page.selectOption(sel, v);
    else await page.fill(sel, v);
  }
}

// `rooflab import FORMAT FILE FLAGS` run beside the file (so the record names it as the page does);
// the record's text without its final newline.
export function cliImport(cli, format, file, flags) {
  return execFileSync(cli, ['import', format, basename(file), ...flags],
    { cwd: dirname(file), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).replace(/\n$/, '');
}

// Calls into the WASM module (every exported function: core's rlw_* and malloc/free) during one
// move of the `key` slider, one step up, counted by a wrapper around the module's exports that is
// removed after: { total, byName, seqShown } — seqShown: the worked calculation's N right after
// the move (equal to the slider's new N when the worked calculation was rendered in that move).
export async function sliderMoveCalls(page, key = 'seq') {
  return page.evaluate((k) => {
    const M = window.rooflab.model.raw;
    const byName = {};
    const saved = {};
    for (const name of Object.keys(M)) {
      if (!name.startsWith('_') || typeof M[name] !== 'function') continue;
      const f = M[name];
      saved[name] = f;
      M[name] = (...a) => { byName[name] = (byName[name] || 0) + 1; return f(...a); };
    }
    try {
      const range = document.querySelector(`[data-testid=input-${k}-range]`);
      range.value = String(Number(range.value) + 1);
      range.dispatchEvent(new Event('input', { bubbles: true }));
    } finally {
      Object.assign(M, saved);
    }
    const total = Object.values(byName).reduce((a, b) => a + b, 0);
    return { total, byName, seqShown: document.querySelector('[data-testid=calc-problem-seq]')?.dataset.value ?? null };
  }, key);
}

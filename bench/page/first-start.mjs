// First start (issue 20, item 7), against `make run`'s own server (scripts/serve.mjs, gzip copies
// from scripts/build-web.sh):
//   - transfer: bytes on the wire for one page load in Chromium (the Network domain's
//     encodedDataLength: compressed bodies plus headers), every request until the page is ready and
//     its records are restored, the browser cache off; with the body size decoded beside it;
//   - first number: navigation start → the first model number (a card of #summary with a digit)
//     painted: the end of the first frame after it is in the DOM; the page's own clock;
//   - time to served: a fresh clone (git clone of this repository's HEAD, node_modules linked from
//     this checkout so nothing is fetched), `make run PORT=0`, until the printed URL answers 200.
// Used by bench.mjs (`make bench-page`); prints nothing itself.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ROOT } from '../../tests/browser/harness.mjs';

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// Starts scripts/serve.mjs for `dir` on a free port: { url, stop, stderr() }.
export function startServe(dir, { cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [join(cwd, 'scripts/serve.mjs'), '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => reject(new Error(`serve.mjs exited (${code}): ${err}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        resolve({
          url: m[1],
          stdout: () => out,
          stderr: () => err,
          stop: () => new Promise((ok) => { child.removeAllListeners('exit'); child.on('exit', ok); child.kill('SIGTERM'); }),
        });
      }
    });
  });
}

// In the page before its scripts: the time (page clock, from navigation start) of the frame after
// the first #summary card with a digit appeared, in window.__rlFirstNumber; when the page said it
// was ready (html[data-ready]: records restored too), in window.__rlReady.
function watchFirstNumber() {
  const seen = () => {
    const dd = document.querySelector('#summary dd');
    return dd && /\d/.test(dd.textContent);
  };
  const obs = new MutationObserver(() => {
    if (!seen()) return;
    obs.disconnect();
    window.__rlFirstNumberInDom = performance.now();
    // rAF runs just before the frame's style, layout and paint; a task queued from it runs once
    // they are done (queued first, it runs before any task the page queues in its own rAF).
    requestAnimationFrame(() => setTimeout(() => { window.__rlFirstNumber = performance.now(); }, 0));
  });
  obs.observe(document, { childList: true, subtree: true, characterData: true });
  new MutationObserver((_, o) => {
    if (document.documentElement.dataset.ready !== '1') return;
    o.disconnect();
    window.__rlReady = performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

// One cold page load of `url` in `context`: { wireBytes, bodyBytes, requests, firstNumberMs,
// inDomMs, readyMs }.
export async function coldLoad(context, url) {
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const wire = new Map();
    const body = new Map();
    cdp.on('Network.dataReceived', (e) => body.set(e.requestId, (body.get(e.requestId) || 0) + e.dataLength));
    cdp.on('Network.loadingFinished', (e) => wire.set(e.requestId, e.encodedDataLength));
    await page.addInitScript(watchFirstNumber);
    await page.goto(url);
    await page.waitForFunction(() => window.__rlFirstNumber !== undefined, null, { timeout: 60000 });
    await page.waitForSelector('html[data-ready="1"]', { timeout: 60000 });
    await page.waitForSelector('[data-testid="records-status"][data-value="idle"]', { state: 'attached', timeout: 60000 });
    await page.waitForTimeout(300); // late requests (workers' modules) finish
    const t = await page.evaluate(() => ({
      firstNumberMs: window.__rlFirstNumber,
      inDomMs: window.__rlFirstNumberInDom,
      readyMs: window.__rlReady,
    }));
    let wireBytes = 0;
    for (const v of wire.values()) wireBytes += v;
    let bodyBytes = 0;
    for (const v of body.values()) bodyBytes += v;
    await cdp.detach();
    return { wireBytes, bodyBytes, requests: wire.size, ...t };
  } finally {
    await page.close();
  }
}

// `runs` fresh clones, each `make run PORT=0` until its URL answers: [{ seconds, url }].
// The clone is of HEAD (commit first); node_modules is linked from this checkout, as after a
// first `npm ci` (setup.sh sees the lock file matching and installs nothing).
export async function timeToServed(runs, { timeoutS = 600 } = {}) {
  const out = [];
  for (let r = 0; r < runs; r++) {
    const dir = mkdtempSync(join(tmpdir(), 'rooflab-clone-'));
    const clone = join(dir, 'rooflab');
    try {
      execFileSync('git', ['clone', '-q', '--no-hardlinks', ROOT, clone]);
      if (existsSync(join(ROOT, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
      const t0 = process.hrtime.bigint();
      const child = spawn('make', ['run', 'PORT=0'], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let log = '';
      const url = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`make run: no URL after ${timeoutS} s\n${log.slice(-2000)}`)), timeoutS * 1000);
        const take = (d) => {
          log += d;
          const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(log);
          if (m) { clearTimeout(timer); resolve(m[1]); }
        };
        child.stdout.on('data', take);
        child.stderr.on('data', take);
        child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`make run exited (${code})\n${log.slice(-2000)}`)); });
      });
      let ok = false;
      while (!ok) {
        try { ok = (await fetch(url)).status === 200; } catch { await new Promise((w) => setTimeout(w, 50)); }
      }
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const lastLine = log.trim().split('\n').at(-1);
      child.removeAllListeners('exit');
      process.kill(-child.pid, 'SIGTERM'); // make and the server it started (its process group)
      await new Promise((ok2) => child.on('exit', ok2));
      out.push({ seconds, url, lastLineIsUrl: lastLine.includes(url) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

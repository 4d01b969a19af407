// Issue 11 items 4–6 in headless Chromium: the model selector against the cited config.json values
// (and its URL key, overridden by explicit keys as the CLI's flags override --model), decode shown
// truthfully (N = 1, overlapping marks ringed, a legend of what is drawn), the keyboard path through
// the roofline's marks, the skip link, the theme button remembered, contrast computed from the CSS
// in both schemes, the exported PNG's caption, print on at most two A4 pages, and screenshots at
// 1280×800 and 390×844, light and dark (test-artifacts/teach-*.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { openPage, ARTIFACTS, ROOT, pageEnv } from './harness.mjs';
import { nativeEval, nativeCli } from '../wasm/load.mjs';

const env = pageEnv();

// Copied by hand from each model's published config.json (huggingface.co/REPO):
// num_attention_heads, num_key_value_heads, head_dim (or hidden_size / num_attention_heads).
const CITED = {
  'llama-3-8b': [32, 8, 4096 / 32], // meta-llama/Meta-Llama-3-8B: hidden_size 4096
  'llama-3-70b': [64, 8, 8192 / 64], // meta-llama/Meta-Llama-3-70B: hidden_size 8192
  'mixtral-8x7b': [32, 8, 4096 / 32], // mistralai/Mixtral-8x7B-v0.1: hidden_size 4096
  'qwen2-7b': [28, 4, 3584 / 28], // Qwen/Qwen2-7B: hidden_size 3584
  'qwen2-72b': [64, 8, 8192 / 64], // Qwen/Qwen2-72B: hidden_size 8192
  'gemma-2-9b': [16, 8, 256], // google/gemma-2-9b: head_dim 256 (hidden_size 3584 / 16 = 224 is not it)
  'gemma-2-27b': [32, 16, 128], // google/gemma-2-27b: head_dim 128
  'phi-3-mini-4k': [32, 32, 3072 / 32], // microsoft/Phi-3-mini-4k-instruct: hidden_size 3072
  'phi-3-medium-4k': [40, 10, 5120 / 40], // microsoft/Phi-3-medium-4k-instruct: hidden_size 5120
  gpt2: [12, 12, 768 / 12], // openai-community/gpt2: n_head 12, n_embd 768
  'gpt2-xl': [25, 25, 1600 / 25], // openai-community/gpt2-xl: n_head 25, n_embd 1600
};

const values = (page, keys) => page.evaluate((ks) => ks.map((k) => document.getElementById(`input-${k}`).value), keys);
const hash = async (page) => { await page.evaluate(() => window.rooflab.flush()); return page.evaluate(() => location.hash.replace(/^#/, '')); };
const shownValue = (page, id) => page.$eval(`[data-testid="${id}"]`, (e) => Number(e.dataset.value));

test('the model selector fills the shape with the cited values; the URL records it; explicit keys win', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  for (const [id, [h, hkv, d]] of Object.entries(CITED)) {
    await page.selectOption('[data-testid=model-select]', id);
    assert.deepEqual((await values(page, ['heads', 'kv-heads', 'head-dim'])).map(Number), [h, hkv, d], id);
    assert.equal(new URLSearchParams(await hash(page)).get('model'), id, `${id} in the URL`);
    assert.match(await page.textContent('[data-testid=model-info]'), /^.+\. From huggingface\.co\/.+ config\.json: /, `${id} cites its source`);
  }
  // The numbers are core's for --model, as the CLI computes them.
  await page.selectOption('[data-testid=model-select]', 'llama-3-70b');
  const native = nativeEval(['--model', 'llama-3-70b']);
  assert.equal(await shownValue(page, 'flops'), native.flops);
  assert.equal(await shownValue(page, 'models-compulsory-bytes'), native.models.compulsory.bytes);
  assert.equal(await hash(page), 'model=llama-3-70b', 'the shape keys equal the model\'s are not repeated');
  // Changing a shape field by hand clears the selection.
  await page.fill('[data-testid=input-kv-heads]', '16');
  assert.equal(await page.inputValue('[data-testid=model-select]'), '');
  assert.equal(await page.textContent('[data-testid=model-info]'), '');
  assert.equal(new URLSearchParams(await hash(page)).get('model'), null);
  // Refused models are listed, disabled, with core's reason.
  const refused = await page.$$eval('[data-testid=model-select] option[disabled]', (os) => os.map((o) => [o.value, o.textContent, o.title]));
  assert.ok(refused.some(([v, t, title]) => v === 'qwen3-next-80b-a3b' && /linear attention/.test(t) && /not approximated/.test(title)), JSON.stringify(refused));
  assert.deepEqual(page.rlErrors, []);
  await page.close();

  // A link: the model, then an explicit key over it (as `--model llama-3-70b --heads 32`).
  const link = await openPage(env.browser.context, `${env.server.url}#model=llama-3-70b&heads=32&phase=decode&kv-len=8192`);
  assert.deepEqual(await values(link, ['model', 'heads', 'kv-heads', 'head-dim']), ['llama-3-70b', '32', '8', '128']);
  const n = nativeEval(['--model', 'llama-3-70b', '--heads', '32', '--seq', '1', '--kv-len', '8192']);
  assert.equal(await shownValue(link, 'flops'), n.flops);
  assert.equal(await shownValue(link, 'models-tiled-bytes'), n.models.tiled.bytes);
  assert.equal(await hash(link), 'phase=decode&model=llama-3-70b&seq=1&kv-len=8192&heads=32');
  assert.deepEqual(link.rlErrors, []);
  await link.close();

  // A sliding window the model does not apply is said, in core's words (as `eval --model`).
  const win = await openPage(env.browser.context, `${env.server.url}#model=mistral-7b-v0.1&phase=decode&kv-len=32768`);
  const wn = nativeEval(['--model', 'mistral-7b-v0.1', '--seq', '1', '--kv-len', '32768']);
  assert.ok(wn.model_note, 'the CLI has a note');
  assert.equal(await win.textContent('[data-testid=model-note]'), ` Note: ${wn.model_note}.`);
  await win.fill('[data-testid=input-kv-len]', '4096');
  await win.press('[data-testid=input-kv-len]', 'Enter');
  assert.equal(await win.$('[data-testid=model-note]'), null, 'no note while L fits the window');
  assert.deepEqual(win.rlErrors, []);
  await win.close();

  // A refused model in a link is named by core, with the reason; the defaults are shown.
  const bad = await openPage(env.browser.context, `${env.server.url}#model=qwen3-next-80b-a3b`);
  assert.match(await bad.textContent('[data-testid=error-model]'), /^model: qwen3-next-80b-a3b cannot be described here: linear attention/);
  assert.equal(await shownValue(bad, 'flops'), nativeEval([]).flops);
  await bad.close();
});

test('decode shows N = 1, prefill shows L = N; overlapping marks are ringed; the legend lists what is drawn', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  assert.equal(await page.inputValue('[data-testid=input-kv-len]'), await page.inputValue('[data-testid=input-seq]'), 'prefill: L shows N');
  await page.fill('[data-testid=input-seq]', '8192');
  assert.equal(await page.inputValue('[data-testid=input-kv-len]'), '8192', 'L follows N in prefill');
  await page.selectOption('[data-testid=input-phase]', 'decode');
  assert.equal(await page.inputValue('[data-testid=input-seq]'), '1', 'decode: the N field shows the N the model uses');
  assert.equal(await page.isDisabled('[data-testid=input-seq]'), true);
  assert.equal(await page.$eval('[data-testid=pairs]', (e) => Number(e.dataset.value)) > 0, true);
  const marks = await page.evaluate(() => window.rooflab.chart('roofline').datasets
    .filter((d) => d.rlKind === 'point').map((d) => ({ model: d.label, overlap: !!d.data[0].overlap, r: d.pointRadius, x: d.data[0].x, y: d.data[0].y })));
  const naive = marks.find((m) => m.model === 'naive');
  const comp = marks.find((m) => m.model === 'compulsory');
  assert.ok(Math.abs(Math.log10(naive.x / comp.x)) < 0.1, 'decode: naive sits on compulsory (S and P are one row)');
  assert.equal(naive.overlap, true, 'the naive mark is drawn as a ring around the compulsory one');
  assert.ok(naive.r > comp.r, 'the ring is larger than the mark it circles');
  const legend = await page.$$eval('#roofline-legend dt .swatch', (s) => s.map((x) => x.className.replace('swatch ', '')));
  assert.ok(legend.includes('ring'), 'the legend says what the ring is');
  const trails = await page.evaluate(() => ['compulsory', 'tiled', 'naive'].map((m) => {
    const t = window.rooflab.trails()[m];
    return Math.log10(Math.max(...t.map((p) => p.x)) / Math.min(...t.map((p) => p.x)));
  }));
  assert.equal(legend.includes('trail'), trails.some((s) => s > 0.01), 'the trails are in the legend only when they are drawn');
  await page.selectOption('[data-testid=input-phase]', 'prefill');
  assert.equal(await page.inputValue('[data-testid=input-seq]'), '8192', 'back in prefill, the N typed before');
  const legend2 = await page.$$eval('#roofline-legend dt .swatch', (s) => s.map((x) => x.className.replace('swatch ', '')));
  assert.ok(legend2.includes('trail') && !legend2.includes('ring'), 'prefill: trails drawn, no ring');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('keyboard: the skip link, arrow keys through the marks with their tooltip, Shift+arrows pan', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'skip-link');
  const box = await page.locator('[data-testid=skip-link]').boundingBox();
  assert.ok(box.y >= 0 && box.height > 10, 'the focused skip link is on screen');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'chart');
  await page.keyboard.press('Tab'); // the zoom buttons, then the canvas
  await page.focus('[data-testid=chart-roofline]');
  await page.keyboard.press('ArrowRight');
  assert.ok(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).tooltip.opacity > 0 || window.rooflab.chart('roofline', { points: false }).tooltip.active > 0));
  const first = await page.textContent('[data-testid=roofline-announce]');
  assert.match(first, /I = [\d.]+ .?FLOP\/B/);
  await page.keyboard.press('ArrowRight');
  const second = await page.textContent('[data-testid=roofline-announce]');
  assert.notEqual(second, first, 'the next mark');
  const x0 = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min);
  await page.keyboard.press('Shift+ArrowRight');
  assert.ok(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min) > x0, 'Shift+ArrowRight pans');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).tooltip.active), 0);
  await page.keyboard.press('0');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// WCAG 2 relative luminance and contrast ratio of two CSS colours (rgb()/rgba() as computed).
function rgb(css) {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(css);
  assert.ok(m, `a computed colour: ${css}`);
  return [m[1], m[2], m[3]].map(Number);
}
function luminance(css) {
  const [r, g, b] = rgb(css).map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

test('contrast from the computed CSS: text ≥ 4.5:1, control edges ≥ 3:1, in both schemes', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await openPage(env.browser.context, `${env.server.url}#pass=fwd&seq=65536`, { colorScheme: scheme });
    const c = await page.evaluate(() => {
      const cs = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
      const v = (name) => {
        const probe = document.createElement('span');
        probe.style.color = `var(${name})`;
        document.body.append(probe);
        const out = getComputedStyle(probe).color;
        probe.remove();
        return out;
      };
      return {
        bg: cs('body', 'backgroundColor') === 'rgba(0, 0, 0, 0)' ? v('--bg') : cs('body', 'backgroundColor'), panel: v('--panel'),
        fg: v('--fg'), muted: v('--muted'), error: v('--error'), accent: v('--accent'),
        compute: v('--naive'), memory: v('--tiled'), edge: cs('[data-testid=input-bandwidth]', 'borderTopColor'),
        selectEdge: cs('[data-testid=input-hw]', 'borderTopColor'), buttonEdge: cs('[data-testid=action-copy-link]', 'borderTopColor'),
        boundLabels: [...document.querySelectorAll('[class^=bound-]')].map((e) => getComputedStyle(e).color),
        // The ledger bar's labelled segments: [text colour, segment colour].
        segments: [...document.querySelectorAll('.ledger-bar .seg')].filter((e) => e.textContent)
          .map((e) => [e.textContent, getComputedStyle(e).color, getComputedStyle(e).backgroundColor]),
      };
    });
    for (const [name, fg] of Object.entries({ fg: c.fg, muted: c.muted, error: c.error, accent: c.accent, compute: c.compute, memory: c.memory })) {
      for (const [bgName, bg] of [['bg', c.bg], ['panel', c.panel]]) {
        assert.ok(ratio(fg, bg) >= 4.5, `${scheme}: ${name} text on ${bgName} is ${ratio(fg, bg).toFixed(2)}:1`);
      }
    }
    for (const label of c.boundLabels) assert.ok(ratio(label, c.bg) >= 4.5, `${scheme}: a bound label is ${ratio(label, c.bg).toFixed(2)}:1`);
    assert.ok(c.boundLabels.length >= 3, 'the bound labels were measured');
    for (const [term, fg, bg] of c.segments) assert.ok(ratio(fg, bg) >= 4.5, `${scheme}: the ledger's ${term} label is ${ratio(fg, bg).toFixed(2)}:1`);
    assert.ok(c.segments.length >= 1, 'a labelled ledger segment was measured');
    for (const [name, e] of Object.entries({ input: c.edge, select: c.selectEdge, button: c.buttonEdge })) {
      for (const [bgName, bg] of [['bg', c.bg], ['panel', c.panel]]) {
        assert.ok(ratio(e, bg) >= 3, `${scheme}: ${name} edge on ${bgName} is ${ratio(e, bg).toFixed(2)}:1`);
      }
    }
    await page.close();
  }
});

test('the theme button switches light ↔ dark and is remembered; a bad stored value is ignored', async () => {
  const page = await openPage(env.browser.context, env.server.url, { colorScheme: 'light' });
  const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim());
  assert.equal(await bg(), '#ffffff');
  // The button says what it does (issue 20, item 8): the theme it switches to.
  const button = () => page.$eval('[data-testid=action-theme]', (e) => [e.textContent, e.getAttribute('aria-label'), e.getAttribute('aria-pressed')]);
  assert.deepEqual(await button(), ['Dark theme', 'Switch to the dark theme', null]);
  await page.click('[data-testid=action-theme]');
  assert.deepEqual(await button(), ['Light theme', 'Switch to the light theme', null]);
  assert.equal(await bg(), '#14171d');
  assert.equal(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).plugins.background), '#14171d', 'the chart recoloured');
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  assert.equal(await bg(), '#14171d', 'remembered');
  assert.deepEqual(await button(), ['Light theme', 'Switch to the light theme', null]);
  await page.evaluate(() => localStorage.setItem('rooflab.theme', 'purple; background:red'));
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  assert.equal(await bg(), '#ffffff', 'an invalid stored value falls back to the OS scheme');
  assert.equal(await page.evaluate(() => localStorage.getItem('rooflab.theme')), null, 'and is removed');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// The PNG's width and height from its IHDR chunk.
const pngSize = (buf) => [buf.readUInt32BE(16), buf.readUInt32BE(20)];

test('the exported PNG carries a caption; print fits on at most two A4 pages', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#model=llama-3-70b&phase=decode&kv-len=8192`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=action-export-png-roofline]')]);
  const png = await readFile(await dl.path());
  const canvas = await page.$eval('[data-testid=chart-roofline]', (c) => [c.width, c.height]);
  const [w, h] = pngSize(png);
  assert.equal(w, canvas[0]);
  assert.ok(h > canvas[1] + 30, `caption lines under the chart (${h} vs ${canvas[1]})`);
  const caption = await page.evaluate(() => window.rooflab.caption());
  assert.match(caption[0], /decode · Llama 3 70B .*H 64 · Hkv 8 · N 1 · L 8,192 · d 128/);
  assert.match(caption[1], /β [\d.]+ TB\/s, π [\d.]+ TFLOP\/s .* — \d{4}-\d\d-\d\d$/);
  assert.match(caption[2], /#phase=decode&model=llama-3-70b/);

  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => window.rooflab.flush());
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
    assert.ok(pages >= 1 && pages <= 2, `${scheme}: print gives ${pages} A4 pages`);
  }
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('screenshots at 1280×800 and 390×844, light and dark; on a phone the chart stays in view while a control has focus', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      const page = await openPage(env.browser.context, `${env.server.url}#model=llama-3-8b&phase=decode&kv-len=32768`, { width: w, height: h, colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `teach-${w}x${h}-${scheme}.png`) });
      if (w < 900) {
        await page.focus('[data-testid=input-kv-len-range]');
        await page.keyboard.press('ArrowRight');
        const chart = await page.locator('[data-testid=chart-roofline]').boundingBox();
        const control = await page.locator('[data-testid=input-kv-len-range]').boundingBox();
        assert.ok(chart.y >= -1 && chart.y + chart.height <= h + 1, `the chart is in view (${chart.y}, ${chart.height})`);
        assert.ok(control.y >= chart.y + chart.height - 1 && control.y + control.height <= h + 1,
          `and the control below it (${control.y} vs ${chart.y + chart.height})`);
        await page.screenshot({ path: join(ARTIFACTS, `teach-${w}x${h}-${scheme}-control.png`) });
      }
      assert.deepEqual(page.rlErrors, []);
      await page.close();
    }
  }
});

test('kernel and GQA packing names are checked by core (rl_kernel_parse, rl_gqa_pack_parse): its texts', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#kernel=fa9`);
  assert.match(await page.textContent('[data-testid=error-kernel]'), /^kernel: unknown kernel profile "fa9"; expected one of generic, fa2, fa3/);
  await page.close();
  const p2 = await openPage(env.browser.context, `${env.server.url}#gqa-pack=both`);
  assert.equal(await p2.textContent('[data-testid=error-gqa-pack]'), 'gqa-pack: expected packed or per-head, got "both"');
  const ok = await p2.evaluate(() => ['', 'packed', 'per-head'].map((v) => window.rooflab.model.parseGqaPack(v).index));
  assert.deepEqual(ok, [0, 1, 2]);
  await p2.close();
});

// Issue 11 item 2 on the page: a bare number, a case slip and TOPS are refused in core's words
// (the CLI's, after "--"), the chart keeps its last good state; a thousands separator is read.
test('units that teach: each slip named in core\'s words, the chart never changed by it', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  const chart = () => page.evaluate(() => JSON.stringify(window.rooflab.chart('roofline').datasets.map((d) => d.data)));
  const cliError = (flag, v) => {
    try { execFileSync(nativeCli(), ['eval', `--${flag}`, v], { encoding: 'utf8', stdio: 'pipe' }); } catch (e) { return e.stderr.trim().replace(/^rooflab eval: --/, ''); }
    throw new Error(`rooflab eval --${flag} ${v} was accepted`);
  };
  const good = await chart();
  for (const [field, text] of [['bandwidth', '2039'], ['bandwidth', '3.35 tb/s'], ['peak', '989 tflops'], ['peak', '312 TOPS']]) {
    await page.fill(`[data-testid=input-${field}]`, text);
    await page.press(`[data-testid=input-${field}]`, 'Enter');
    // Core's words (the box's first text; a "did you mean" adds its button after them).
    assert.equal(await page.$eval(`[data-testid=error-${field}]`, (e) => e.firstChild.textContent), cliError(field, text), `${field} ${text}`);
    assert.equal(await chart(), good, `${field} "${text}" leaves the chart as it was`);
    await page.fill(`[data-testid=input-${field}]`, '');
    await page.press(`[data-testid=input-${field}]`, 'Enter');
  }
  assert.match(cliError('bandwidth', '2039'), /a bandwidth needs a unit: did you mean "2039 GB\/s"\?/);
  // "2,039 GB/s": the comma is a thousands separator — the same roof as "2039 GB/s".
  await page.fill('[data-testid=input-bandwidth]', '2,039 GB/s');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  assert.equal(await page.isVisible('[data-testid=error-bandwidth]'), false);
  assert.equal(await shownValue(page, 'ridge_flop_per_byte'), nativeEval(['--bandwidth', '2039 GB/s']).ridge_flop_per_byte);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

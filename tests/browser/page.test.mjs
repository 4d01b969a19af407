// The explorer page in headless Chromium (Debian's chromium through playwright-core): load it,
// move sliders with the keyboard, type unit strings, compare every shown number (data-value) with
// the native `rooflab eval --json` for the same state, restore state from a URL fragment, export
// PNG and CSV, keep the last good state on bad input, load every scenario, take screenshots at
// 1280×800 and 390×844 (test-artifacts/), and see no console error anywhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, ARTIFACTS, pageEnv, hoverMark } from './harness.mjs';
import { nativeEval } from '../wasm/load.mjs';

const env = pageEnv();

const MODELS = ['compulsory', 'tiled', 'naive'];

// All shown numbers: data-testid → data-value.
async function shown(page) {
  await page.evaluate(() => window.rooflab.flush()); // an off-screen worked calculation, a throttled URL
  return page.$$eval('[data-testid][data-value]', (els) => Object.fromEntries(els.map((e) => [e.dataset.testid, e.dataset.value])));
}

// The page's URL fragment → the CLI's flags (the keys are the CLI's long flags, CONTRACTS.md).
function flagsFromFragment(hash) {
  const out = [];
  for (const [k, v] of new URLSearchParams(hash.replace(/^#/, ''))) {
    if (k === 'phase' || k === 'ceilings' || k === 'roofs' || k === 'levels') continue; // page-only keys
    if (k === 'causal') { if (v === '1') out.push('--causal'); continue; }
    out.push(`--${k}`, v);
  }
  return out;
}

function close(actual, expected, what) {
  if (expected === 0) return assert.equal(actual, 0, what);
  const err = Math.abs(actual - expected) / Math.abs(expected);
  assert.ok(err <= 1e-12, `${what}: page ${actual} vs native ${expected}`);
}

// The worked calculation's numbers are named by core's report-output table: calc-NAME, NAME with
// '.' → '-', is the path NAME in eval --json (no name has a '-' of its own), and the span shows its
// value. Kept ids (docs/PAGE.md "Test ids of the worked calculation"): the preset's own figures,
// MLA's d_qk (the Problem step's d shown again), core's reason when nothing is predicted, and the
// MLA limit, which eval --json does not print (variants.test checks it by hand).
const CALC_OWN = ['calc-sms', 'calc-clock', 'calc-l2-size', 'calc-mla-dqk', 'calc-predicted-unavailable', 'calc-mla_intensity_limit_flop_per_byte'];
function assertCalcNamed(values, native, label) {
  let named = 0;
  for (const [id, v] of Object.entries(values)) {
    if (!id.startsWith('calc-') || CALC_OWN.includes(id)) continue;
    const want = id.slice('calc-'.length).split('-').reduce((o, k) => (o === null || o === undefined ? o : o[k]), native);
    assert.ok(want !== undefined && want !== null, `${label}: ${id} names nothing in eval --json`);
    if (typeof want === 'number') close(Number(v), want, `${label} ${id}`);
    else assert.equal(v, String(want), `${label} ${id}`);
    named++;
  }
  return named;
}

// Every number the page shows for the state equals rooflab eval --json for the same flags.
function assertMatchesNative(values, native, label) {
  assert.ok(assertCalcNamed(values, native, label) >= 60, `${label}: the worked calculation's numbers`);
  // the summary cards and the worked calculation (calc-NAME) keyed by core's report-output names
  for (const key of ['flops', 'pairs', 'softmax_flops', 'bandwidth_bytes_per_s', 'peak_flops_per_s', 'ridge_flop_per_byte']) {
    close(Number(values[key]), native[key], `${label} ${key}`);
    close(Number(values[`calc-${key}`]), native[key], `${label} calc-${key}`);
  }
  for (const m of MODELS) {
    const nm = native.models[m];
    if (!nm) { assert.equal(values[`models-${m}-bytes`], '', `${label}: ${m} should be "not modelled"`); continue; }
    close(Number(values[`models-${m}-bytes`]), nm.bytes, `${label} models-${m}-bytes`);
    close(Number(values[`models-${m}-intensity_flop_per_byte`]), nm.intensity_flop_per_byte, `${label} models-${m}-intensity_flop_per_byte`);
    close(Number(values[`models-${m}-attainable_flops_per_s`]), nm.attainable_flops_per_s, `${label} models-${m}-attainable_flops_per_s`);
    close(Number(values[`models-${m}-time_s`]), nm.time_s, `${label} models-${m}-time_s`);
    assert.equal(values[`models-${m}-bound`], nm.bound, `${label} models-${m}-bound`);
    close(Number(values[`calc-models-${m}-bytes`]), nm.bytes, `${label} calc-models-${m}-bytes`);
  }
  close(Number(values['sram-total_bytes']), native.sram.total_bytes, `${label} sram-total_bytes`);
}

// One CSV line (RFC 4180 quoting, no embedded newlines).
function parseCsvLine(line) {
  const cells = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') quoted = false; else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { cells.push(cur); cur = ''; } else cur += ch;
  }
  cells.push(cur);
  return cells;
}

async function hash(page) { return page.evaluate(() => { window.rooflab.flush(); return location.hash; }); }

test('loads with the default state; every shown number equals rooflab eval --json', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  assert.equal(await page.textContent('[data-testid=status]'), 'Ready');
  const v = await shown(page);
  assertMatchesNative(v, nativeEval([]), 'defaults');
  // Independent check against CONTRACTS.md defaults: B=1 H=8 N=L=4096 d=64 → F = 4·8·4096²·64.
  assert.equal(Number(v.flops), 4 * 8 * 4096 * 4096 * 64);
  assert.equal(Number(v['calc-sram-total_bytes']), 56.5 * 1024);
  assert.ok(await page.isVisible('[data-testid=sram-warning]'), 'the 56.5 KiB tile is over the 48 KiB default');
  // no test id twice (the worked calculation's calc- ids apart from the cards' and the table's)
  const twice = () => page.$$eval('[data-testid]', (els) => {
    const seen = new Map();
    for (const e of els) seen.set(e.dataset.testid, (seen.get(e.dataset.testid) || 0) + 1);
    return [...seen].filter(([, k]) => k > 1).map(([id]) => id);
  });
  assert.deepEqual(await twice(), []);
  // nor with the whole-layer table filled: each operator's cells are named by the operator
  // (DeepSeek-V3 in decode: 29 operators, dense and MoE layers, MLA's absorbed W_UK and W_UV;
  // Gemma 2: a global and a local attention)
  for (const [model, ops] of [['deepseek-v3&phase=decode', 29], ['gemma-2-9b', 18]]) {
    await page.evaluate((m) => { location.hash = `model=${m}`; }, model);
    await page.waitForFunction((n) => document.querySelectorAll('#layer-rows > tr').length === n, ops);
    assert.deepEqual(await twice(), [], model);
    const cols = ['flops', 'bytes', 'intensity', 'time', 'share'];
    assert.equal(await page.$$eval('[data-testid^="layer-op-"]', (e) => e.length), ops * cols.length, model);
    for (const col of cols) assert.ok(await page.$(`[data-testid="layer-row-attention"] [data-testid="layer-op-attention-${col}"]`), `${model}: layer-op-attention-${col}`);
  }
  assert.ok(await page.$('[data-testid="layer-row-attention_local"] [data-testid="layer-op-attention_local-bytes"]'), 'Gemma 2\'s local attention is its own row and ids');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('sliders move from the keyboard and the numbers follow; number fields too', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.focus('[data-testid=input-seq-range]');
  for (let i = 0; i < 100; i++) await page.keyboard.press('ArrowRight'); // step 0.01 in log2 N: one octave
  const n = Number(await page.inputValue('[data-testid=input-seq]'));
  assert.ok(n > 4096 && n <= 8192 * 1.01, `seq after one octave: ${n}`);
  assert.match(await hash(page), new RegExp(`seq=${n}`));
  assertMatchesNative(await shown(page), nativeEval(['--seq', String(n)]), `seq=${n}`);
  // The drawn working points sit where the numbers say (moving N redraws them in place).
  const drawn = await page.evaluate(() => {
    const hook = window.rooflab;
    return hook.chart('roofline').datasets.filter((d) => d.rlKind === 'point').map((d) => {
      const at = hook.markAt('roofline', { kind: 'point', label: d.label });
      return { model: d.label, x: d.data[0].x, px: at.px, want: at.want };
    });
  });
  const v2 = await shown(page);
  assert.equal(drawn.length, 3);
  for (const d of drawn) {
    assert.equal(d.x, Number(v2[`models-${d.model}-intensity_flop_per_byte`]), `${d.model} point x`);
    assert.ok(Math.abs(d.px - d.want) < 0.01, `${d.model} point drawn at its intensity`);
  }

  await page.fill('[data-testid=input-heads]', '32');
  assert.equal(await page.inputValue('[data-testid=input-kv-heads]'), '32', 'kv-heads follows heads while tied');
  await page.fill('[data-testid=input-kv-heads]', '8');
  await page.fill('[data-testid=input-head-dim]', '128');
  await page.selectOption('[data-testid=input-dtype]', 'bf16');
  await page.check('[data-testid=input-causal]');
  await page.fill('[data-testid=input-block-m]', '128');
  assert.equal(await page.inputValue('[data-testid=input-heads-range]'), '32', 'the slider follows its number field');
  const flags = flagsFromFragment(await hash(page));
  assert.ok(flags.includes('--causal') && flags.includes('bf16'), flags.join(' '));
  assertMatchesNative(await shown(page), nativeEval(flags), flags.join(' '));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('unit strings in bandwidth and peak; bits and IEC prefixes', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.fill('[data-testid=input-bandwidth]', '4.8 TB/s');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  await page.fill('[data-testid=input-peak]', '1.5 PFLOP/s');
  await page.press('[data-testid=input-peak]', 'Tab');
  let v = await shown(page);
  assert.equal(Number(v.bandwidth_bytes_per_s), 4.8e12);
  assert.equal(Number(v.peak_flops_per_s), 1.5e15);
  assertMatchesNative(v, nativeEval(['--bandwidth', '4.8 TB/s', '--peak', '1.5 PFLOP/s']), 'typed roof');
  await page.fill('[data-testid=input-bandwidth]', '3 TiB/s');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  assert.equal(Number((await shown(page)).bandwidth_bytes_per_s), 3 * 2 ** 40);
  await page.fill('[data-testid=input-bandwidth]', '25 Gbit/s');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  v = await shown(page);
  assert.equal(Number(v.bandwidth_bytes_per_s), 25e9 / 8);
  assertMatchesNative(v, nativeEval(flagsFromFragment(await hash(page))), 'bits');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('bad input shows the inline error and keeps the last good state and chart', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.fill('[data-testid=input-bandwidth]', '2 TB/s');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  const good = await shown(page);
  const goodHash = await hash(page);
  const goodChart = await page.evaluate(() => JSON.stringify(window.rooflab.chart('roofline').datasets.map((d) => d.data)));
  assert.equal(await page.isVisible('[data-testid=error-bandwidth]'), false);

  await page.fill('[data-testid=input-bandwidth]', '312 TFLOPS');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  const err = await page.textContent('[data-testid=error-bandwidth]');
  assert.ok(await page.isVisible('[data-testid=error-bandwidth]'));
  assert.match(err, /^bandwidth: "312 TFLOPS" is a compute rate, expected bytes per second/);
  assert.equal(await page.getAttribute('[data-testid=input-bandwidth]', 'aria-invalid'), 'true');
  assert.deepEqual(await shown(page).then((v) => v.bandwidth_bytes_per_s), good.bandwidth_bytes_per_s);
  assert.equal(await hash(page), goodHash, 'the URL keeps the last good state');
  const chartNow = await page.evaluate(() => JSON.stringify(window.rooflab.chart('roofline').datasets.map((d) => d.data)));
  assert.equal(chartNow, goodChart, 'the chart keeps the last good state');

  // Other bad inputs: not a multiple, zero, causal with N > L cannot happen (L = N) — kv-heads.
  await page.fill('[data-testid=input-bandwidth]', '');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  assert.equal(await page.isVisible('[data-testid=error-bandwidth]'), false, 'fixing the field clears the error');
  await page.fill('[data-testid=input-kv-heads]', '3');
  assert.match(await page.textContent('[data-testid=error-kv-heads]'), /kv-heads: heads \(8\) must be a multiple of kv-heads \(3\)/);
  await page.fill('[data-testid=input-kv-heads]', '0');
  assert.match(await page.textContent('[data-testid=error-kv-heads]'), /kv-heads: expected a positive integer \(1 to \d+\), got "0"/);
  await page.fill('[data-testid=input-kv-heads]', '2');
  assert.equal(await page.isVisible('[data-testid=error-kv-heads]'), false);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the URL fragment restores the state (and survives a reload); decode too', async () => {
  const frag = '#seq=8192&heads=32&kv-heads=8&head-dim=128&dtype=bf16&causal=1&hw=h200-sxm&bandwidth=4.8%20TB%2Fs';
  const page = await openPage(env.browser.context, env.server.url + frag);
  assert.equal(await page.inputValue('[data-testid=input-seq]'), '8192');
  assert.equal(await page.inputValue('[data-testid=input-kv-heads]'), '8');
  assert.equal(await page.inputValue('[data-testid=input-hw]'), 'h200-sxm');
  assert.equal(await page.inputValue('[data-testid=input-bandwidth]'), '4.8 TB/s');
  assert.equal(await page.isChecked('[data-testid=input-causal]'), true);
  const flags = ['--seq', '8192', '--heads', '32', '--kv-heads', '8', '--head-dim', '128', '--dtype', 'bf16', '--causal', '--hw', 'h200-sxm', '--bandwidth', '4.8 TB/s'];
  assertMatchesNative(await shown(page), nativeEval(flags), 'fragment');
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  assertMatchesNative(await shown(page), nativeEval(flags), 'after reload');

  await page.goto(`${env.server.url}#phase=decode&seq=1&kv-len=32768&heads=32&kv-heads=8&head-dim=128&kv-dtype=fp8`);
  await page.waitForSelector('html[data-ready="1"]');
  assert.equal(await page.inputValue('[data-testid=input-phase]'), 'decode');
  assert.equal(await page.isDisabled('[data-testid=input-seq]'), true);
  const v = await shown(page);
  assertMatchesNative(v, nativeEval(['--seq', '1', '--kv-len', '32768', '--heads', '32', '--kv-heads', '8', '--head-dim', '128', '--kv-dtype', 'fp8']), 'decode');
  assert.equal(v['models-compulsory-bound'], 'memory');

  // Editing the fragment in place to a bad state keeps the last good state (hashchange).
  await page.evaluate(() => { location.hash = '#heads=8&kv-heads=3'; });
  await page.waitForSelector('[data-testid=error-kv-heads]:not([hidden])');
  assert.equal((await shown(page))['models-compulsory-bytes'], v['models-compulsory-bytes']);
  assert.deepEqual(page.rlErrors, []);
  await page.close();

  // Opening a bad link: the error is shown, the defaults are drawn, nothing crashes.
  const bad = await openPage(env.browser.context, `${env.server.url}#heads=8&kv-heads=3`);
  assert.ok(await bad.isVisible('[data-testid=error-kv-heads]'));
  assert.match(await bad.textContent('[data-testid=status]'), /invalid.*defaults/);
  assertMatchesNative(await shown(bad), nativeEval([]), 'bad link → defaults');
  assert.deepEqual(bad.rlErrors, []);
  await bad.close();
});

test('Copy link, Export PNG of each chart, Export CSV of the plotted points and ceilings', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#seq=16384&hw=a100-sxm4-80gb&ceilings=fp32,fp16_nontensor`);
  await page.click('[data-testid=action-copy-link]');
  await page.waitForFunction(() => document.querySelector('[data-testid=link-status]').dataset.value);
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-value'), await page.evaluate(() => location.href));

  for (const which of ['roofline', 'sweep']) {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=action-export-png-${which}]`)]);
    assert.equal(dl.suggestedFilename(), `rooflab-${which}.png`);
    const path = join(ARTIFACTS, `export-${which}.png`);
    await dl.saveAs(path);
    const png = await readFile(path);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.ok(png.length > 10000, `${which} PNG has content (${png.length} bytes)`);
  }

  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=action-export-csv]')]);
  const path = join(ARTIFACTS, 'export-points.csv');
  await dl.saveAs(path);
  const lines = (await readFile(path, 'utf8')).trim().split('\n');
  // Every text cell is quoted (io.js csvCell: formula-injection rule), the header too.
  // (the measured points' columns after the chart's: exports.js, tests/browser/share.test.mjs)
  assert.ok(lines[0].startsWith('"chart","series","x","y","x_unit","y_unit","swept_value","record","kernel","label",'), lines[0]);
  const rows = lines.slice(1).map(parseCsvLine);
  const v = await shown(page);
  const tiled = rows.find((r) => r[0] === 'roofline' && r[1] === 'tiled');
  assert.ok(tiled, 'the tiled working point is in the CSV');
  assert.equal(Number(tiled[2]), Number(v['models-tiled-intensity_flop_per_byte']));
  assert.equal(Number(tiled[3]), Number(v['models-tiled-attainable_flops_per_s']));
  // Ceilings: fp32 on an A100 80 GB is 19.5 TFLOP/s, fp16 non-tensor 78 (the A100 whitepaper, Table 1).
  const ceil = (name) => rows.filter((r) => r[1].startsWith(`ceiling: ${name}`)).map((r) => Number(r[3]));
  assert.equal(Math.max(...ceil('fp32')), 19.5e12);
  assert.equal(Math.max(...ceil('fp16 non-tensor')), 78e12);
  assert.ok(rows.some((r) => r[1].startsWith('roof')), 'the roof is in the CSV');
  assert.ok(rows.filter((r) => r[0] === 'sweep' && r[1] === 'tiled time').length > 200, '256-point sweep per model');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('every guided scenario loads, explains itself, and its numbers equal rooflab eval', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  const ids = await page.$$eval('#scenario-buttons button', (bs) => bs.map((b) => b.dataset.testid));
  assert.ok(ids.length >= 6, `${ids.length} scenarios`);
  for (const id of ids) {
    await page.click(`[data-testid=${id}]`);
    assert.equal(await page.textContent('[data-testid=status]'), 'Ready', id);
    assert.equal(await page.getAttribute(`[data-testid=${id}]`, 'aria-pressed'), 'true');
    const text = await page.textContent('[data-testid=scenario-text]');
    assert.ok(text.length > 150, `${id} explains itself`);
    const flags = flagsFromFragment(await hash(page));
    assertMatchesNative(await shown(page), nativeEval(flags), `${id} (${flags.join(' ')})`);
  }
  // Two scenarios checked against hand-derived values.
  await page.click('[data-testid=scenario-decode-gqa]');
  let v = await shown(page);
  assert.equal(Number(v['models-compulsory-bytes']), 16793600); // MODEL.md GQA decode
  await page.click('[data-testid=scenario-tiled-more-than-naive]');
  v = await shown(page);
  assert.ok(Number(v['models-tiled-bytes']) > Number(v['models-naive-bytes']), 'd=256, Br=16: tiled moves more than naive');
  await page.click('[data-testid=scenario-units-gb-gib]');
  assert.equal(Number((await shown(page)).bandwidth_bytes_per_s), 3350 * 2 ** 30);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('extra ceilings toggle; zoom buttons work; the legend explains every mark', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  const labels = () => page.evaluate(() => window.rooflab.chart('roofline').datasets.map((d) => d.label));
  assert.ok(!(await labels()).some((l) => l.startsWith('ceiling')));
  await page.check('[data-testid=input-ceilings-fp32]');
  await page.check('[data-testid=input-ceilings-fp16_nontensor]');
  const ls = await labels();
  assert.ok(ls.some((l) => l.startsWith('ceiling: fp32')) && ls.some((l) => l.startsWith('ceiling: fp16 non-tensor')), ls.join(' | '));
  assert.match(await hash(page), /ceilings=fp32%2Cfp16_nontensor/);
  const legend = await page.textContent('[data-testid=roofline-legend]');
  for (const word of ['Roof', 'Ridge', 'Compulsory', 'Tiled', 'Naive', 'Shaded band', 'trails', 'fp32']) assert.ok(legend.includes(word), word);
  const before = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min);
  await page.click('[data-testid=action-zoom-in]');
  // (the zoom plugin may still be on its way: it is fetched on first need, charts.js zoomPlugin)
  await page.waitForFunction((b) => window.rooflab.chart('roofline', { points: false }).scales.x.min > b, before);
  const zoomed = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min);
  assert.ok(zoomed > before, 'zoom in narrows the x range');
  await page.click('[data-testid=action-zoom-reset]');
  assert.equal(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min), before);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('screenshots at 1280×800 and 390×844, light and dark, with no console errors', async () => {
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      const page = await openPage(env.browser.context, `${env.server.url}#seq=16384&hw=a100-sxm4-80gb`, { width: w, height: h, colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `page-${w}x${h}-${scheme}.png`) });
      // A full-page capture does not scroll, so write the lazily rendered worked calculation first
      // and render the sections the page skips while off screen (content-visibility: auto).
      await page.evaluate(() => {
        window.rooflab.flush();
        for (const s of document.querySelectorAll('.results > section')) s.style.contentVisibility = 'visible';
      });
      await page.screenshot({ path: join(ARTIFACTS, `page-${w}x${h}-${scheme}-full.png`), fullPage: true });
      // Readable: nothing wider than the viewport.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${w}×${h}: page is ${overflow}px wider than the viewport`);
      assert.deepEqual(page.rlErrors, []);
      await page.close();
    }
  }
});

test('custom hardware needs typed figures; the backward pass shows what is modelled; keys and tooltips', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.selectOption('[data-testid=input-hw]', 'custom');
  assert.match(await page.textContent('[data-testid=error-bandwidth]'), /^bandwidth: preset custom has no bandwidth figure; expected a rate such as "3\.35 TB\/s"/);
  assert.equal(await hash(page), '', 'the last good state (defaults) stays in the URL');
  await page.fill('[data-testid=input-bandwidth]', '1.5 TB/s');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  assert.match(await page.textContent('[data-testid=error-peak]'), /^peak: preset custom has no fp16 tensor peak for fp16/);
  await page.fill('[data-testid=input-peak]', '200 TFLOPS');
  await page.press('[data-testid=input-peak]', 'Enter');
  assert.equal(await page.textContent('[data-testid=status]'), 'Ready');
  let v = await shown(page);
  assert.equal(Number(v.ridge_flop_per_byte), 200e12 / 1.5e12);
  assertMatchesNative(v, nativeEval(['--hw', 'custom', '--bandwidth', '1.5 TB/s', '--peak', '200 TFLOPS']), 'custom');

  await page.selectOption('[data-testid=input-hw]', 'h100-sxm');
  await page.selectOption('[data-testid=input-pass]', 'bwd');
  v = await shown(page);
  assert.equal(Number(v.flops), 2.5 * 4 * 8 * 4096 * 4096 * 64);
  // Tiled backward is core's FA2 backward dataflow now; naive backward is still not modelled.
  assert.equal(v['models-naive-bytes'], '', 'naive backward is not modelled: shown as such, not guessed');
  assertMatchesNative(v, nativeEval(['--pass', 'bwd']), 'bwd');
  assert.match(await page.textContent('[data-testid=worked]'), /naive: no backward traffic model yet/);
  assert.match(await page.textContent('[data-testid=worked]'), /FlashAttention-2 backward dataflow/);
  await page.selectOption('[data-testid=input-pass]', 'fwd');

  // Keyboard pan on the focused chart (Shift+arrows; plain arrows step through the marks,
  // teach.test.mjs), then reset with 0.
  const x0 = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min);
  await page.focus('[data-testid=chart-roofline]');
  await page.keyboard.press('Shift+ArrowRight');
  assert.ok(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min) > x0, 'Shift+ArrowRight pans');
  const xr = await page.evaluate(() => { const x = window.rooflab.chart('roofline', { points: false }).scales.x; return Math.log10(x.max / x.min); });
  await page.keyboard.press('0');
  assert.equal(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min), x0);
  const x1 = await page.evaluate(() => { const x = window.rooflab.chart('roofline', { points: false }).scales.x; return Math.log10(x.max / x.min); });
  assert.ok(Math.abs(xr - x1) < 1e-9, 'panning a log axis keeps the decades shown');
  // Mouse drag pans too.
  const box = await page.locator('[data-testid=chart-roofline]').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  assert.ok(await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.min) > x0, 'drag pans');
  await page.click('[data-testid=action-zoom-reset]');

  // Hovering the tiled point shows its exact values with units.
  await hoverMark(page, { kind: 'point', label: 'tiled' });
  const lines = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).tooltip.lines);
  assert.match(lines.join(' | '), /^tiled: I = [\d.]+ FLOP\/B, [\d.]+ TFLOP\/s \| bytes [\d.]+ MB \([\d.]+ MiB\)/);
  assert.match(lines.join(' | '), /memory-bound/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a dtype the preset has no peak for asks for one; an unknown preset in a link is named', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#hw=a100-sxm4-80gb`);
  const before = (await shown(page)).peak_flops_per_s;
  await page.selectOption('[data-testid=input-dtype]', 'fp8');
  assert.match(await page.textContent('[data-testid=error-peak]'), /^peak: preset a100-sxm4-80gb has no fp8 tensor peak for fp8/);
  assert.equal((await shown(page)).peak_flops_per_s, before, 'the last good state stays');
  await page.fill('[data-testid=input-peak]', '624 TFLOP/s');
  await page.press('[data-testid=input-peak]', 'Enter');
  const v = await shown(page);
  assert.equal(Number(v.peak_flops_per_s), 624e12);
  assertMatchesNative(v, nativeEval(['--hw', 'a100-sxm4-80gb', '--dtype', 'fp8', '--peak', '624 TFLOP/s']), 'fp8 on A100 with a typed peak');
  assert.deepEqual(page.rlErrors, []);
  await page.close();

  const bad = await openPage(env.browser.context, `${env.server.url}#hw=h300&seq=abc`);
  const err = (await bad.textContent('[data-testid=error-seq]')) + (await bad.textContent('[data-testid=error-hw]'));
  assert.match(err, /seq: expected a positive integer \(1 to \d+\), got "abc"|hw: unknown preset "h300"/);
  assertMatchesNative(await shown(bad), nativeEval([]), 'bad link → defaults');
  assert.deepEqual(bad.rlErrors, []);
  await bad.close();
});

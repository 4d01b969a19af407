// The guided tours (web/js/tour.js, scenarios.js) in headless Chromium: every step of every tour
// sets its state (the controls hold the step's values), rings a mark or the ridge or highlights a
// row of the worked calculation, draws the previous step's ghost from step 2 on, and every number
// its text quotes equals `rooflab eval --json` (or `rooflab hw --json`) for the state; a URL per
// step restores it; a keyboard-only path through a tour; the chart stays in the viewport while
// stepping at 1280×800 and 390×844; the "start here" line on a first visit; the closing
// question; screenshots (test-artifacts/tour-*.png), light and dark; no console error anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openPage, ARTIFACTS, pageEnv } from './harness.mjs';
import { nativeEval, nativeCli } from '../wasm/load.mjs';
import { SCENARIOS } from '../../web/js/scenarios.js';

const env = pageEnv();

async function hash(page) { return page.evaluate(() => { window.rooflab.flush(); return location.hash; }); }

// The fragment → CLI flags (page-only keys dropped); `at`: a question's state changes on top.
function flagsFromFragment(h, at = {}) {
  const out = [];
  const q = new URLSearchParams(h.replace(/^#/, ''));
  for (const [k, v] of Object.entries(at)) q.set(k, String(v));
  for (const [k, v] of q) {
    if (['phase', 'ceilings', 'roofs', 'levels'].includes(k)) continue;
    if (k === 'causal') { if (v === '1') out.push('--causal'); continue; }
    out.push(`--${k}`, v);
  }
  return out;
}

// The whole-layer view's numbers (layer-view.js): `rooflab layer --json` for the fragment's
// model, phase, lengths, dtypes and preset (the view's own tp and weight dtype at their defaults).
function nativeLayer(h) {
  const q = new URLSearchParams(h.replace(/^#/, ''));
  const args = ['layer', '--model', q.get('model'), '--phase', q.get('phase') || 'prefill', '--json'];
  for (const k of ['batch', 'seq', 'kv-len', 'dtype', 'kv-dtype', 'hw']) if (q.has(k)) args.push(`--${k}`, q.get(k));
  return JSON.parse(execFileSync(nativeCli(), args, { encoding: 'utf8' }));
}

// Where each number a tour text quotes is in `rooflab eval --json` (or the preset's `hw --json`,
// or for the layer-* numbers `rooflab layer --json`).
function nativeValue(id, ev, hw, layer = null) {
  const l = /^layer-(.+)$/.exec(id);
  if (l) {
    const s = layer.step;
    const v = { 'weight-bytes': s.weight_bytes, 'kv-bytes': s.kv_bytes, 'act-bytes': s.activation_bytes, 'step-time': s.time_s, 'attention-share': s.attention_share, 'weights-share': s.weights_share, crossover: layer.crossover.value, 'crossover-at': layer.crossover.value }[l[1]];
    assert.ok(v !== undefined, `a tour quotes ${id}: add where it is in rooflab layer's JSON`);
    return v;
  }
  const hand = {
    // Absorbed MLA's large-L intensity by hand from the CLI's resolved problem (core's
    // rl_mla_intensity_limit is not in eval --json): 2·H·N·(d_qk + d_v) / (d_qk·b), the latent in
    // the compute dtype (b = 2 for bf16), and the latent's bytes per token d_qk·b.
    'calc-mla_intensity_limit_flop_per_byte': (2 * ev.problem.heads * ev.problem.seq * (ev.problem.head_dim + ev.problem.head_dim_v)) / (ev.problem.head_dim * { bf16: 2, fp16: 2 }[ev.problem.kv_dtype]),
    'calc-kv_token_bytes': ev.problem.head_dim * { bf16: 2, fp16: 2 }[ev.problem.kv_dtype],
    'preset-smem-default': hw.smem_per_block_default_bytes, 'preset-smem-optin': hw.smem_per_block_optin_bytes, 'preset-l2': hw.l2_bytes,
  };
  if (id in hand) return hand[id];
  // A number of core's report table: its test id is the name with '.' → '-' (calc- before it in
  // the worked calculation), the path in --json (no name has a '-' of its own).
  const v = id.replace(/^calc-/, '').split('-').reduce((o, k) => (o === null || o === undefined ? o : o[k]), ev);
  assert.ok(typeof v === 'number', `a tour quotes ${id}: not a number at that path in eval --json (add where it is in rooflab's JSON)`);
  return v;
}

function close(actual, expected, what) {
  assert.ok(Number.isFinite(actual) && Number.isFinite(expected), `${what}: ${actual} vs ${expected}`);
  if (expected === 0) return assert.equal(actual, 0, what);
  assert.ok(Math.abs(actual - expected) / Math.abs(expected) <= 1e-12, `${what}: page ${actual} vs native ${expected}`);
}

// The controls the step says (the tour's state and every `set` so far) hold those values.
async function assertControls(page, scenario, i, label) {
  const want = { ...scenario.state };
  for (const st of scenario.steps.slice(0, i + 1)) Object.assign(want, st.set || {});
  for (const [k, v] of Object.entries(want)) {
    if (['roofs', 'ceilings'].includes(k)) continue;
    const got = await page.evaluate((key) => {
      const el = document.getElementById(`input-${key}`);
      return el.type === 'checkbox' ? el.checked : el.value;
    }, k);
    assert.equal(String(got), String(v), `${label}: control ${k}`);
  }
}

async function tourInfo(page) {
  return page.evaluate(() => {
    const p = document.querySelector('[data-testid=tour-panel]');
    const ds = window.rooflab.chart('roofline').datasets;
    const ann = Object.fromEntries(window.rooflab.chart('roofline', { points: false }).plugins.annotations.map((k) => [k, true]));
    return {
      hidden: p.hidden, ghost: p.dataset.ghost, highlight: p.dataset.highlight, value: p.dataset.value,
      counter: document.querySelector('[data-testid=tour-counter]').textContent,
      ghostSets: ds.filter((d) => d.rlKind === 'ghost').length,
      rings: Object.keys(ann).filter((k) => k.startsWith('tourMark') || k === 'tourRidge'),
      row: document.querySelector('#worked li.tour-hl')?.dataset.row || '',
      looked: document.querySelector('[data-testid=tour-look] .tour-row')?.dataset.row || '',
      nums: [...document.querySelectorAll('[data-testid=tour-step] [data-src]')].map((e) => ({ id: e.dataset.src, value: e.dataset.value, missing: e.dataset.missing })),
      status: document.querySelector('[data-testid=status]').textContent,
      search: location.search,
    };
  });
}

test('every step of every tour: state, highlight, ghost, and the quoted numbers equal rooflab eval', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  const ids = await page.$$eval('#scenario-buttons button', (bs) => bs.map((b) => b.dataset.scenario));
  assert.deepEqual(ids, SCENARIOS.map((s) => s.id));
  const hwCache = {};
  for (const s of SCENARIOS) {
    await page.click(`[data-testid=scenario-${s.id}]`);
    for (let i = 0; i < s.steps.length; i++) {
      const label = `${s.id} step ${i + 1}`;
      const st = s.steps[i];
      const info = await tourInfo(page);
      assert.equal(info.hidden, false, label);
      assert.equal(info.status, 'Ready', label);
      assert.equal(info.counter, `${i + 1} / ${s.steps.length}`, label);
      assert.equal(await page.textContent('[data-testid=tour-title]'), s.title);
      assert.match(info.search, new RegExp(`tour=${s.id}&step=${i + 1}$`), label);
      await assertControls(page, s, i, label);
      // A highlight: rings on the named marks / the ridge, the named row marked and copied.
      const look = st.look || {};
      assert.ok((look.marks || []).length || look.ridge || look.row, `${label} says what to look at`);
      for (const m of look.marks || []) assert.ok(info.rings.includes(`tourMark-${m}`), `${label}: ring on ${m} (${info.rings})`);
      if (look.ridge) assert.ok(info.rings.includes('tourRidge'), `${label}: the ridge`);
      if (look.row) { assert.equal(info.row, look.row, `${label}: row highlighted`); assert.equal(info.looked, look.row, `${label}: row shown in the panel`); }
      // The ghost of the previous step from step 2 on.
      assert.equal(info.ghost, i > 0 ? 'on' : 'off', label);
      assert.equal(info.ghostSets > 0, i > 0, `${label}: ghost datasets ${info.ghostSets}`);
      // Every quoted number is the page's, and equals the native CLI for this state.
      const flags = flagsFromFragment(await hash(page));
      const ev = nativeEval(flags);
      hwCache[ev.hw] ||= JSON.parse(execFileSync(nativeCli(), ['hw', ev.hw, '--json'], { encoding: 'utf8' }))[0];
      const placeholders = [...st.text.matchAll(/\{([a-z0-9_-]+)/g)].map((x) => x[1]);
      assert.deepEqual(info.nums.map((n) => n.id), placeholders, label);
      const layer = placeholders.some((p) => p.startsWith('layer-')) ? nativeLayer(await hash(page)) : null;
      for (const n of info.nums) {
        assert.ok(!n.missing, `${label}: ${n.id} is not on the page`);
        close(Number(n.value), nativeValue(n.id, ev, hwCache[ev.hw], layer), `${label} ${n.id}`);
      }
      // The text is the reader's: no "seed", no leftover braces.
      const text = await page.textContent('[data-testid=tour-step]');
      assert.doesNotMatch(text, /seed|\{|\}/i, label);
      if (i === s.steps.length - 1) assert.ok(st.question, `${s.id} ends with a question`);
      if (i + 1 < s.steps.length) await page.click('[data-testid=tour-next]');
    }
    // Back returns to the previous step's state.
    await page.click('[data-testid=tour-back]');
    await assertControls(page, s, s.steps.length - 2, `${s.id} back`);
  }
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// A number written into a tour's text (not a placeholder) is an input the step sets, or one of
// the small constants of the formulas and units (2·b, 4·b, 8 and 16 bits, 10⁹): a computed
// number is never typed into a text, where it could drift from what core computes.
test('the texts type no computed number: only the step\'s inputs and formula constants', () => {
  const CONSTANTS = new Set([2, 4, 8, 10, 16]);
  for (const s of SCENARIOS) {
    const state = { ...s.state };
    s.steps.forEach((st, i) => {
      Object.assign(state, st.set || {});
      const inputs = new Set([...Object.values(state), ...Object.values(st.question?.at || {})].flatMap((v) => String(v).match(/\d+(?:\.\d+)?/g) || []).map(Number));
      const texts = [st.title, st.text, ...(i === 0 ? [s.intro] : []), st.question?.text || ''];
      for (const t of texts) {
        for (const n of t.replace(/\{[^}]*\}/g, '').match(/\d+(?:\.\d+)?/g) || []) {
          assert.ok(inputs.has(Number(n)) || CONSTANTS.has(Number(n)), `${s.id} step ${i + 1}: "${n}" in "${t}" is neither an input nor a constant`);
        }
      }
    });
  }
});

test('tiled vs naive: the flip is visible (marks a factor 2 and more apart on both sides)', async () => {
  const s = SCENARIOS.find((x) => x.id === 'tiled-more-than-naive');
  const page = await openPage(env.browser.context, `${env.server.url}?tour=${s.id}&step=1`);
  const ratio = async () => {
    const ev = nativeEval(flagsFromFragment(await hash(page)));
    return ev.models.tiled.intensity_flop_per_byte / ev.models.naive.intensity_flop_per_byte;
  };
  assert.ok((await ratio()) < 0.55, `Br = 16: tiled well left of naive (${await ratio()})`);
  await page.click('[data-testid=tour-next]');
  assert.ok(Math.abs((await ratio()) - 1) < 0.05, `Br = 32: break-even (${await ratio()})`);
  await page.click('[data-testid=tour-next]');
  assert.ok((await ratio()) > 1.9, `Br = 128: tiled well right of naive (${await ratio()})`);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a URL per step restores the step, its ghost and its highlight; a bad one is ignored', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}?tour=kv-reloads&step=2`);
  let info = await tourInfo(page);
  assert.equal(info.hidden, false);
  assert.equal(info.counter, '2 / 3');
  assert.equal(info.ghost, 'on');
  assert.ok(info.rings.includes('tourMark-tiled'));
  assert.equal(await page.inputValue('[data-testid=input-block-m]'), '64');
  // The ghost is step 1's tiled mark (Br = 16: lower intensity than the current one).
  const xs = await page.evaluate(() => {
    const ds = window.rooflab.chart('roofline').datasets;
    return { ghost: ds.find((d) => d.rlId === 'ghost-tiled').data[0].x, now: ds.find((d) => d.rlKind === 'point' && d.label === 'tiled').data[0].x };
  });
  assert.ok(xs.ghost < xs.now / 3, `ghost ${xs.ghost} left of ${xs.now}`);
  // A control changed by hand leaves the tour's URL.
  await page.fill('[data-testid=input-head-dim]', '128');
  info = await tourInfo(page);
  assert.equal(info.search, '');
  await page.goto(`${env.server.url}?tour=no-such-tour&step=9#seq=2048`);
  await page.waitForSelector('html[data-ready="1"]');
  info = await tourInfo(page);
  assert.equal(info.hidden, true);
  assert.equal(await page.inputValue('[data-testid=input-seq]'), '2048');
  await page.goto(`${env.server.url}?tour=decode-gqa&step=99`);
  await page.waitForSelector('html[data-ready="1"]');
  assert.equal((await tourInfo(page)).counter, '3 / 3', 'a step out of range is brought into range');
  // Reset all closes the tour: no panel, no ghost, no rings, the URL without the step.
  await page.click('[data-testid=action-reset]');
  info = await tourInfo(page);
  assert.equal(info.hidden, true);
  assert.equal(info.ghostSets, 0);
  assert.deepEqual(info.rings, []);
  assert.equal(info.search, '');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('keyboard only: start a tour, step with the arrow keys, close with Escape', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  const s = SCENARIOS.find((x) => x.id === 'decode-gqa');
  await page.focus(`[data-testid=scenario-${s.id}]`);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'tour-panel');
  for (let i = 1; i < s.steps.length; i++) {
    await page.keyboard.press('ArrowRight');
    assert.equal((await tourInfo(page)).counter, `${i + 1} / ${s.steps.length}`);
  }
  await page.keyboard.press('ArrowRight'); // the last step stays
  assert.equal((await tourInfo(page)).counter, `${s.steps.length} / ${s.steps.length}`);
  assert.equal(await page.inputValue('[data-testid=input-kv-heads]'), '1');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.inputValue('[data-testid=input-kv-heads]'), '32');
  // Tab reaches Back and Next; Enter on Next steps on.
  await page.focus('[data-testid=tour-next]');
  await page.keyboard.press('Enter');
  assert.equal((await tourInfo(page)).counter, '3 / 3');
  // The answer field keeps its arrow keys; Escape closes and gives focus back to the tour's button.
  await page.focus('[data-testid=tour-answer]');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await tourInfo(page)).counter, '3 / 3');
  await page.keyboard.press('Escape');
  const info = await tourInfo(page);
  assert.equal(info.hidden, true);
  assert.equal(info.ghostSets, 0, 'the ghost goes with the tour');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), `scenario-${s.id}`);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// The feedback line: its text and data-outcome / data-slip / data-value.
async function feedback(page, answer) {
  if (answer !== undefined) {
    await page.fill('[data-testid=tour-answer]', answer);
    await page.press('[data-testid=tour-answer]', 'Enter');
  }
  return page.evaluate(() => {
    const f = document.querySelector('[data-testid=tour-feedback]');
    return { text: f.textContent, ...f.dataset };
  });
}

// `value` (base units) typed in another unit than the page shows: µs, MB, kFLOP/B.
function otherUnit(value, unit) {
  const [scale, name] = { s: [1e-6, 'µs'], B: [1e6, 'MB'], 'FLOP/B': [1e3, 'kFLOP/B'] }[unit];
  return `${(value / scale).toPrecision(6)} ${name}`;
}

test('each closing question is posed by core (pose) or revealed (reveal), and says which', () => {
  const kinds = ['flops', 'bytes', 'intensity', 'ridge', 'time', 'regime'];
  for (const s of SCENARIOS) {
    const q = s.steps.at(-1).question;
    assert.ok(Boolean(q.pose) !== Boolean(q.reveal), `${s.id}: either pose or reveal`);
    if (q.pose) assert.ok(kinds.includes(q.pose.kind) && ['compulsory', 'tiled', 'naive'].includes(q.pose.model), s.id);
  }
});

test('a posed closing question: the page’s own value in other units is right by core’s verdict', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  for (const s of SCENARIOS.filter((x) => x.steps.at(-1).question.pose)) {
    const q = s.steps.at(-1).question;
    await page.goto(`${env.server.url}?tour=${s.id}&step=${s.steps.length}`);
    await page.waitForSelector('html[data-ready="1"]');
    await page.click('[data-testid=tour-reveal]');
    const shown = Number((await feedback(page)).value);
    const ev = nativeEval(flagsFromFragment(await hash(page), q.at));
    close(shown, nativeValue(q.answer, ev, {}), `${s.id}: revealed (at ${JSON.stringify(q.at)})`);
    const f = await feedback(page, otherUnit(shown, q.unit));
    assert.equal(f.outcome, 'right', `${s.id}: ${f.text}`);
    assert.match(f.text, /^Right: /, s.id);
  }
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the closing question judged by core: right in other units, a wrong dimension, unreadable input', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}?tour=decode-fp8-kv&step=2`);
  await page.click('[data-testid=tour-reveal]');
  const shown = await feedback(page);
  assert.equal(shown.outcome, 'shown');
  const q = SCENARIOS.find((x) => x.id === 'decode-fp8-kv').steps.at(-1).question;
  const ev = nativeEval(flagsFromFragment(await hash(page), q.at));
  const t = ev.models.compulsory.time_s;
  close(Number(shown.value), t, 'revealed answer');
  // The bound time in nanoseconds: core accepts it (any unit of time within its tolerance).
  const ns = Math.round(t * 1e9);
  let f = await feedback(page, `${ns} ns`);
  assert.equal(f.outcome, 'right', f.text);
  close(Number(f.value), ns * 1e-9, 'the answer read, in seconds');
  f = await feedback(page, '20 GB');
  assert.deepEqual([f.outcome, f.slip], ['wrong', 'dimension'], f.text);
  assert.match(f.text, /asks for/);
  f = await feedback(page, '14');
  assert.equal(f.outcome, 'unreadable', f.text);
  assert.match(f.text, /^answer: /);
  // The other side of the max (F/π, far shorter in decode) is named as such.
  f = await feedback(page, `${(ev.flops / ev.peak_flops_per_s * 1e6).toPrecision(4)} µs`);
  assert.deepEqual([f.outcome, f.slip], ['wrong', 'other-side'], f.text);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the closing question judged by core: a MAC-vs-FLOP slip (×0.5) is named with its step', async () => {
  const s = SCENARIOS.find((x) => x.id === 'tiled-more-than-naive');
  const page = await openPage(env.browser.context, `${env.server.url}?tour=${s.id}&step=${s.steps.length}`);
  const ev = nativeEval(flagsFromFragment(await hash(page), s.steps.at(-1).question.at));
  const f = await feedback(page, `${(ev.models.tiled.intensity_flop_per_byte / 2).toPrecision(5)} FLOP/B`);
  assert.deepEqual([f.outcome, f.slip], ['wrong', 'mac-vs-flop'], f.text);
  assert.match(f.text, /step 2 \(FLOPs F = 4·B·H·d·P\): your answer is half of it: did you count multiply-adds instead of FLOPs\?/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a revealed closing question (a block count at Br = 256): the answer read and shown beside the model’s, no verdict; count nouns read', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}?tour=kv-reloads&step=3`);
  await page.click('[data-testid=tour-reveal]');
  const shown = await feedback(page);
  const ev = nativeEval(flagsFromFragment(await hash(page), { 'block-m': 256 }));
  // N = 16384 rows in blocks of Br = 256: 16384 / 256 = 64 query blocks (by hand).
  assert.equal(ev.models.tiled.query_blocks, 64);
  assert.equal(Number(shown.value), 64);
  let f = await feedback(page, '3');
  assert.equal(f.outcome, 'read');
  assert.equal(Number(f.value), 3);
  assert.match(f.text, /^You wrote 3; the model says 64/);
  // A count may carry its noun (issue 20: "128 blocks" was refused).
  for (const typed of ['64 blocks', '64 CTAs', '64 tiles', '64 query blocks']) {
    f = await feedback(page, typed);
    assert.equal(f.outcome, 'read', `${typed}: ${f.text}`);
    assert.equal(Number(f.value), 64, typed);
  }
  f = await feedback(page, '3 GB');
  assert.equal(f.outcome, 'unreadable', f.text);
  f = await feedback(page, '64 apples');
  assert.equal(f.outcome, 'unreadable', f.text);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('"start here" on a first visit only; a corrupt stored value is replaced', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.evaluate(() => localStorage.setItem('rooflab.tour.seen', 'garbage'));
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  assert.equal(await page.isVisible('[data-testid=tour-start-here]'), true);
  assert.equal(await page.evaluate(() => localStorage.getItem('rooflab.tour.seen')), null);
  assert.match(await page.textContent('[data-testid=tour-start-here]'), new RegExp(SCENARIOS[0].title));
  await page.click('[data-testid=tour-start-first]');
  assert.equal((await tourInfo(page)).value, `${SCENARIOS[0].id}:1`);
  assert.equal(await page.isVisible('[data-testid=tour-start-here]'), false);
  await page.click('[data-testid=tour-close]');
  assert.equal((await tourInfo(page)).hidden, true, 'the close button closes the tour');
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  assert.equal(await page.isVisible('[data-testid=tour-start-here]'), false, 'remembered');
  await page.evaluate(() => localStorage.removeItem('rooflab.tour.seen'));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the chart stays in view while stepping, at 1280×800 and 390×844; screenshots light and dark', async () => {
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      const page = await openPage(env.browser.context, env.server.url, { width: w, height: h, colorScheme: scheme });
      const s = SCENARIOS.find((x) => x.id === 'tiled-more-than-naive');
      await page.click(`[data-testid=scenario-${s.id}]`);
      for (let i = 0; i < s.steps.length; i++) {
        const r = await page.evaluate(() => {
          const rect = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return { top: b.top, bottom: b.bottom, left: b.left, right: b.right }; };
          return { canvas: rect('[data-testid=chart-roofline]'), next: rect('[data-testid=tour-next]'), step: rect('[data-testid=tour-step]'), vh: innerHeight, vw: innerWidth };
        });
        const label = `${w}×${h} ${scheme} step ${i + 1}`;
        assert.ok(r.canvas.top >= 0 && r.canvas.bottom <= r.vh, `${label}: the chart is in view ${JSON.stringify(r.canvas)}`);
        assert.ok(r.next.top >= 0 && r.next.bottom <= r.vh, `${label}: Next is in view ${JSON.stringify(r.next)}`);
        assert.ok(r.step.top < r.vh, `${label}: the step's text starts in view`);
        if (w > 900) assert.ok(r.step.left >= r.canvas.right, `${label}: the panel is beside the chart`);
        else assert.ok(r.step.top >= r.canvas.bottom - 1, `${label}: the panel is below the chart`);
        if (i === 1) await page.screenshot({ path: join(ARTIFACTS, `tour-${w}x${h}-${scheme}.png`) });
        if (i + 1 < s.steps.length) await page.click('[data-testid=tour-next]');
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${w}: no horizontal scroll (${overflow})`);
      assert.deepEqual(page.rlErrors, []);
      await page.close();
    }
  }
});

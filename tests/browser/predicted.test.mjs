// The predicted time on the page in headless Chromium: the kernel-profile controls, the ledger, the
// per-level bytes and intensities and the worked calculation's new steps equal `rooflab eval --json
// --kernel …` to 1e-12; the kernel keys round-trip through the URL; a profile that cannot predict
// shows core's reason (and no stale number); the L2 and exp roofs toggle; the two scenarios; the
// tile search; screenshots with the ledger in view, light and dark; no console error anywhere.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openPage, ARTIFACTS, pageEnv } from './harness.mjs';
import { nativeEval, nativeFail, nativeCli } from '../wasm/load.mjs';

const env = pageEnv();

const MODELS = ['compulsory', 'tiled', 'naive'];
const TERMS = ['mma', 'tiles', 'exp', 'waves', 'memory', 'occupancy', 'floor'];
const FA3 = 'seq=8192&batch=4&heads=16&head-dim=128';

async function shown(page) {
  await page.evaluate(() => window.rooflab.flush());
  return page.$$eval('[data-testid][data-value]', (els) => Object.fromEntries(els.map((e) => [e.dataset.testid, e.dataset.value])));
}
async function hash(page) { return page.evaluate(() => { window.rooflab.flush(); return location.hash; }); }

// The fragment → CLI flags (page-only keys dropped).
function flagsFromFragment(h) {
  const out = [];
  for (const [k, v] of new URLSearchParams(h.replace(/^#/, ''))) {
    if (['phase', 'ceilings', 'roofs', 'levels'].includes(k)) continue;
    if (k === 'causal') { if (v === '1') out.push('--causal'); continue; }
    out.push(`--${k}`, v);
  }
  return out;
}

function close(actual, expected, what) {
  assert.ok(Number.isFinite(actual), `${what}: page shows ${actual}`);
  if (expected === 0) return assert.equal(actual, 0, what);
  const err = Math.abs(actual - expected) / Math.abs(expected);
  assert.ok(err <= 1e-12, `${what}: page ${actual} vs native ${expected}`);
}

// Every new number (ledger, levels, worked steps) against the native JSON.
function assertPredictedMatches(v, nat, label) {
  const p = nat.predicted;
  close(Number(v['predicted-time_s']), p.time_s, `${label} predicted-time_s`);
  close(Number(v['predicted-flops_per_s']), p.flops_per_s, `${label} predicted-flops_per_s`);
  assert.equal(v['predicted-limit'], p.limit, `${label} predicted-limit (the limit verdict)`);
  for (const t of TERMS) {
    close(Number(v[`predicted-terms-${t}`]), p.terms[t], `${label} predicted-terms-${t}`);
    close(Number(v[`calc-predicted-terms-${t}`]), p.terms[t], `${label} calc-term-${t}`);
  }
  close(Number(v['calc-predicted-time_s']), p.time_s, `${label} calc-predicted-time`);
  close(Number(v['calc-predicted-flops_per_s']), p.flops_per_s, `${label} calc-predicted-flops`);
  close(Number(v['calc-predicted-levels-dram-bytes']), p.levels.dram.bytes, `${label} predicted DRAM bytes`);
  close(Number(v['calc-predicted-levels-l2-bytes']), p.levels.l2.bytes, `${label} predicted L2 bytes`);
  close(Number(v['calc-predicted-levels-dram-time_s']), p.levels.dram.time_s, `${label} predicted DRAM time`);
  close(Number(v['calc-predicted-levels-l2-time_s']), p.levels.l2.time_s, `${label} predicted L2 time`);
  close(Number(v['calc-predicted-levels-dram-intensity_flop_per_byte']), nat.flops / p.levels.dram.bytes, `${label} predicted DRAM intensity`);
  close(Number(v['calc-predicted-levels-l2-intensity_flop_per_byte']), nat.flops / p.levels.l2.bytes, `${label} predicted L2 intensity`);
  close(Number(v['calc-predicted-computed_pairs']), p.computed_pairs, `${label} computed pairs`);
  close(Number(v['calc-predicted-ctas']), p.ctas, `${label} CTAs`);
  close(Number(v['calc-predicted-waves']), p.waves, `${label} waves`);
  close(Number(v['calc-predicted-mma_flops_per_s']), p.mma_flops_per_s, `${label} MMA rate`);
  close(Number(v['calc-predicted-exp_per_s']), p.exp_per_s, `${label} exp rate`);
  close(Number(v['calc-predicted-overlap_exponent']), p.overlap_exponent, `${label} overlap exponent`);
  close(Number(v['calc-predicted-tile-block_m']), p.tile.block_m, `${label} Br`);
  close(Number(v['calc-predicted-tile-block_n']), p.tile.block_n, `${label} Bc`);
  close(Number(v['calc-predicted-tile-ctas_per_sm']), p.tile.ctas_per_sm, `${label} CTAs/SM`);
  close(Number(v['calc-predicted-tile-splits']), p.tile.splits, `${label} splits`);
  close(Number(v['calc-roofs-l2_bandwidth_bytes_per_s']), nat.roofs.l2_bandwidth_bytes_per_s, `${label} L2 bandwidth`);
  close(Number(v['calc-roofs-exp_flops_per_s']), nat.roofs.exp_flops_per_s, `${label} exp roof`);
  close(Number(v['calc-roofs-mma_exp_flops_per_s']), nat.roofs.mma_exp_flops_per_s, `${label} MMA + exp roof`);
  for (const m of MODELS) {
    const lv = nat.models[m].levels;
    for (const l of ['dram', 'l2']) {
      close(Number(v[`calc-models-${m}-levels-${l}-bytes`]), lv[l].bytes, `${label} ${m} ${l} bytes`);
      close(Number(v[`calc-models-${m}-levels-${l}-intensity_flop_per_byte`]), lv[l].intensity_flop_per_byte, `${label} ${m} ${l} intensity`);
      close(Number(v[`calc-models-${m}-levels-${l}-attainable_flops_per_s`]), lv[l].attainable_flops_per_s, `${label} ${m} ${l} attainable`);
    }
    close(Number(v[`calc-models-${m}-levels-l2-time_s`]), lv.l2.time_s, `${label} ${m} L2 time`);
    close(Number(v[`calc-models-${m}-levels-kv_hit_fraction`]), lv.kv_hit_fraction, `${label} ${m} K/V hit fraction`);
  }
}

// The drawn predicted point and the predicted-time curve.
async function drawnPredicted(page) {
  return page.evaluate(() => {
    const p = window.rooflab.chart('roofline').datasets.find((d) => d.rlKind === 'predicted');
    const s = window.rooflab.chart('sweep').datasets.find((d) => d.label.startsWith('predicted time'));
    return { point: p ? p.data[0] : null, label: p?.label, curve: s ? s.data.length : 0 };
  });
}

for (const kernel of ['fa3', 'generic']) {
  test(`${kernel} on h100-sxm: the ledger, the levels and the worked steps equal rooflab eval --json`, async () => {
    const page = await openPage(env.browser.context, `${env.server.url}#${FA3}&kernel=${kernel}&levels=1`);
    const v = await shown(page);
    const flags = flagsFromFragment(await hash(page));
    assert.deepEqual(flags.slice(-2), kernel === 'generic' ? ['--head-dim', '128'] : ['--kernel', 'fa3'], 'generic is the default: omitted');
    const nat = nativeEval(flags);
    assertPredictedMatches(v, nat, kernel);
    const d = await drawnPredicted(page);
    close(d.point.x, nat.flops / nat.predicted.levels.dram.bytes, `${kernel} point at its DRAM intensity`);
    close(d.point.y, nat.predicted.flops_per_s, `${kernel} point at F / predicted time`);
    assert.equal(d.label, `predicted (${kernel})`);
    assert.equal(d.curve, 256, 'the predicted time over the whole sweep');
    // Level points drawn where the numbers say.
    const lv = await page.evaluate(() => window.rooflab.chart('roofline').datasets.filter((x) => x.rlKind === 'level').map((x) => x.data.map((p) => p.x)));
    assert.deepEqual(lv, ['dram', 'l2'].map((l) => MODELS.map((m) => nat.models[m].levels[l].intensity_flop_per_byte)));
    // Moving N patches the ledger in place: still every number from core.
    await page.fill('[data-testid=input-seq]', '2048');
    assertPredictedMatches(await shown(page), nativeEval(flagsFromFragment(await hash(page))), `${kernel} at N = 2048`);
    // The tile search: only for the generic profile, the same best tile and time as rooflab tune.
    if (kernel === 'generic') {
      const tflags = flagsFromFragment(await hash(page));
      const tune = JSON.parse(execFileSync(nativeCli(), ['tune', ...tflags, '--json'], { encoding: 'utf8' }));
      const best = tune.candidates[0];
      const v2 = await shown(page);
      assert.equal(v2['best-tile'], `${best.block_m}x${best.block_n}x${best.splits}`);
      close(Number(v2['best-tile-time']), best.time_s, 'best tile time');
      const text = await page.textContent('[data-testid=best-tile]');
      assert.match(text, /Runners-up: .*loses on (mma|tiles|exp|waves|memory|floor)/);
    } else {
      assert.ok(!(await page.isVisible('[data-testid=best-tile]')), 'no tile search for fixed-tile profiles');
    }
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  });
}

test('kernel keys round-trip through the URL; the controls set them; decode profiles match the CLI', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.selectOption('[data-testid=input-phase]', 'decode');
  await page.fill('[data-testid=input-kv-len]', '16384');
  await page.fill('[data-testid=input-heads]', '32');
  await page.fill('[data-testid=input-kv-heads]', '8');
  await page.selectOption('[data-testid=input-kernel]', 'flash-decoding');
  await page.selectOption('[data-testid=input-gqa-pack]', 'per-head');
  await page.fill('[data-testid=input-splits]', '16');
  await page.fill('[data-testid=input-ctas-per-sm]', '2');
  const h = await hash(page);
  assert.match(h, /kernel=flash-decoding&gqa-pack=per-head&splits=16&ctas-per-sm=2$/);
  assert.match(await page.textContent('[data-testid=kernel-description]'), /Flash-Decoding/);
  const v = await shown(page);
  const nat = nativeEval(flagsFromFragment(h));
  close(Number(v['predicted-time_s']), nat.predicted.time_s, 'flash-decoding time');
  for (const t of TERMS) close(Number(v[`predicted-terms-${t}`]), nat.predicted.terms[t], `flash-decoding ${t}`);
  // A fresh page from the link: the same controls and numbers.
  const again = await openPage(env.browser.context, `${env.server.url}${h}`);
  assert.equal(await again.inputValue('[data-testid=input-kernel]'), 'flash-decoding');
  assert.equal(await again.inputValue('[data-testid=input-gqa-pack]'), 'per-head');
  assert.equal(await again.inputValue('[data-testid=input-splits]'), '16');
  assert.equal(await again.inputValue('[data-testid=input-ctas-per-sm]'), '2');
  assert.equal((await shown(again))['predicted-time_s'], v['predicted-time_s']);
  assert.equal(await hash(again), h);
  // Back to the profile's choices: the keys leave the link.
  await again.selectOption('[data-testid=input-kernel]', 'generic');
  await again.selectOption('[data-testid=input-gqa-pack]', '');
  await again.fill('[data-testid=input-splits]', '');
  await again.fill('[data-testid=input-ctas-per-sm]', '0');
  assert.doesNotMatch(await hash(again), /kernel|gqa-pack|splits|ctas-per-sm/);
  // An old link (no kernel keys) is unchanged and predicts with the generic profile.
  const old = await openPage(env.browser.context, `${env.server.url}#seq=8192&heads=32`);
  assert.equal(await hash(old), '#seq=8192&heads=32');
  assert.equal(await old.inputValue('[data-testid=input-kernel]'), 'generic');
  // A bad split count is core's refusal, under its field; the last good state stays.
  await old.fill('[data-testid=input-splits]', '1000');
  assert.match(await old.textContent('[data-testid=error-splits]'), /^splits: expected a whole number from 0 to 128/);
  assert.equal(await hash(old), '#seq=8192&heads=32');
  for (const p of [page, again, old]) { assert.deepEqual(p.rlErrors, []); await p.close(); }
});

test('a profile that cannot predict shows core\'s reason inline, never a stale number', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#${FA3}&kernel=fa3`);
  assert.ok(await page.isVisible('[data-testid=predicted-terms-exp]'));
  await page.selectOption('[data-testid=input-hw]', 'a100-sxm4-80gb');
  const want = nativeFail(['eval', '--hw', 'a100-sxm4-80gb', '--kernel', 'fa3', ...flagsFromFragment(`#${FA3}`)]);
  assert.equal(want.status, 2);
  const reason = await page.textContent('[data-testid=predicted-unavailable]');
  assert.ok(want.stderr.includes(reason.replace(/^No prediction: /, '')), `page "${reason}" vs CLI "${want.stderr}"`);
  assert.match(reason, /fa3 needs a Hopper GPU/);
  const v = await shown(page);
  for (const id of ['predicted-time_s', 'predicted-flops_per_s', ...TERMS.map((t) => `predicted-terms-${t}`), 'calc-predicted-time_s']) {
    assert.ok(!(id in v), `${id} is not shown`);
  }
  assert.match(await page.textContent('[data-testid=calc-predicted-unavailable]'), /fa3 needs a Hopper GPU/);
  assert.deepEqual(await drawnPredicted(page), { point: null, label: undefined, curve: 0 });
  assert.equal(await page.textContent('[data-testid=status]'), 'Ready', 'the bounds are still shown');
  // flashinfer with N > 1.
  await page.selectOption('[data-testid=input-hw]', 'h100-sxm');
  await page.selectOption('[data-testid=input-kernel]', 'flashinfer');
  assert.match(await page.textContent('[data-testid=predicted-unavailable]'), /flashinfer is a decode kernel/);
  await page.selectOption('[data-testid=input-kernel]', 'generic');
  // Every preset but custom predicts (its L2 bandwidth, clock and exp rate on file): v100-sxm2 too
  // (at d = 64: the generic 64 x 64 tile at d = 128 needs more than its 96 KiB per block).
  await page.fill('[data-testid=input-head-dim]', '64');
  await page.selectOption('[data-testid=input-hw]', 'v100-sxm2');
  const v100 = nativeEval(flagsFromFragment(await hash(page)));
  assert.ok(v100.predicted && v100.predicted.time_s > 0, 'the CLI predicts on v100-sxm2');
  close(Number((await shown(page))['predicted-time_s']), v100.predicted.time_s, 'v100-sxm2 predicts');
  // At d = 128 the problem's 64 x 64 tile (98,816 B) exceeds V100's 96 KiB per block: the default
  // takes the largest tile-search candidate that fits (64 x 32), as the CLI does, and says so.
  await page.fill('[data-testid=input-head-dim]', '128');
  const fitted = nativeEval(flagsFromFragment(await hash(page)));
  assert.ok(fitted.predicted.tile.fitted_to_shared_memory, 'the CLI fits the tile');
  assert.deepEqual([fitted.predicted.tile.block_m, fitted.predicted.tile.block_n], [64, 32]);
  close(Number((await shown(page))['predicted-time_s']), fitted.predicted.time_s, 'v100-sxm2 d=128 predicts');
  const facts = await page.textContent('[data-testid=ledger] .hint');
  assert.match(facts, /tile 64 × 32 \(the largest that fits the shared memory; the problem's tile does not\)/);
  await page.locator('[data-testid=ledger]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'predicted-v100-fitted-tile-1280x800.png') });
  await page.fill('[data-testid=input-head-dim]', '64');
  // Back to a predictable state: the numbers come back (fresh, from core).
  await page.selectOption('[data-testid=input-hw]', 'h100-sxm');
  const nat = nativeEval(flagsFromFragment(await hash(page)));
  close(Number((await shown(page))['predicted-time_s']), nat.predicted.time_s, 'after the unavailable state');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the L2 roof and the exp roofs toggle, labelled, in the URL, the y axis taking them in', async () => {
  const page = await openPage(env.browser.context, `${env.server.url}#${FA3}`);
  const roofs = () => page.evaluate(() => {
    const c = window.rooflab.chart('roofline');
    return { ids: c.datasets.filter((d) => d.rlId && d.rlId.endsWith('-roof')).map((d) => [d.rlId, d.rlLabel.text, d.data.map((p) => p.y)]), yMax: c.scales.y.max };
  });
  assert.deepEqual((await roofs()).ids, []);
  await page.check('[data-testid=input-roofs-l2]');
  assert.match(await hash(page), /roofs=l2$/);
  let r = await roofs();
  assert.deepEqual(r.ids.map((x) => x[0]), ['l2-roof']);
  assert.match(r.ids[0][1], /^L2 9\.7 TB\/s$/);
  await page.check('[data-testid=input-roofs-exp]');
  assert.match(await hash(page), /roofs=l2%2Cexp$/);
  r = await roofs();
  const nat = nativeEval(flagsFromFragment(await hash(page)));
  assert.deepEqual(r.ids.map((x) => x[0]), ['l2-roof', 'exp-roof', 'mma-exp-roof']);
  assert.equal(r.ids[1][2].at(-1), nat.roofs.exp_flops_per_s);
  assert.equal(r.ids[2][2].at(-1), nat.roofs.mma_exp_flops_per_s);
  assert.ok(r.yMax >= nat.roofs.exp_flops_per_s, 'the exp roof (above π) is in view');
  assert.match(await page.textContent('[data-testid=roofline-legend]'), /MMA \+ exp roof/);
  await page.uncheck('[data-testid=input-roofs-l2]');
  await page.uncheck('[data-testid=input-roofs-exp]');
  assert.deepEqual((await roofs()).ids, []);
  assert.doesNotMatch(await hash(page), /roofs/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the two new scenarios: FA3 over the tiled DRAM bound; packed vs per-head decode', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  await page.click('[data-testid=scenario-fa3-beats-tiled]');
  let v = await shown(page);
  assert.match(await hash(page), /kernel=fa3/);
  assert.equal(v['models-tiled-bound'], 'memory', 'the tiled DRAM-count point is memory-bound');
  assert.equal(v['calc-models-tiled-levels-dram-bytes'], v['models-compulsory-bytes'], 'L2 reuse: DRAM carries the compulsory bytes');
  assert.equal(v['predicted-limit'], 'compute');
  const tf = Number(v['predicted-flops_per_s']) / 1e12;
  assert.ok(tf > 600 && tf < 660, `near 640 TFLOP/s: ${tf}`);
  assert.ok(Number(v['predicted-terms-exp']) > 0.25 * Number(v['predicted-time_s']), 'the exp term is large');
  assert.match(await page.textContent('[data-testid=scenario-text]'), /ledger/);
  assertPredictedMatches(v, nativeEval(flagsFromFragment(await hash(page))), 'fa3 scenario');

  await page.click('[data-testid=scenario-decode-packed-vs-per-head]');
  v = await shown(page);
  const packed = { l2: Number(v['calc-predicted-levels-l2-bytes']), dram: Number(v['calc-predicted-levels-dram-bytes']) };
  assertPredictedMatches(v, nativeEval(flagsFromFragment(await hash(page))), 'flashinfer scenario');
  await page.selectOption('[data-testid=input-kernel]', 'generic');
  await page.selectOption('[data-testid=input-gqa-pack]', 'per-head');
  v = await shown(page);
  assertPredictedMatches(v, nativeEval(flagsFromFragment(await hash(page))), 'generic per-head');
  // per head, K/V cross L2 once per query head of the group: 4 × the compulsory K/V (Q and O
  // are 16 KiB of the 134 MB); packed, once (plus the splits' partial O, 8.4 MB at 256 splits)
  const ratio = Number(v['calc-predicted-levels-l2-bytes']) / Number(v['calc-models-compulsory-bytes']);
  assert.ok(Math.abs(ratio - 4) < 0.01, `L2 bytes × the group size 4: ${ratio}`);
  assert.ok(packed.l2 < 1.1 * Number(v['calc-models-compulsory-bytes']), 'packed: K/V cross L2 once');
  // the 4 readers of a KV head are in flight together: their re-reads hit L2 though the cache
  // (134 MB) is over it: DRAM carries the compulsory bytes (issue 17: reuse distance)
  assert.equal(v['calc-predicted-levels-dram-bytes'], v['calc-models-compulsory-bytes']);
  // L = 8192: the working set fits L2, DRAM the same as the packed kernel's compulsory K/V.
  await page.fill('[data-testid=input-kv-len]', '8192');
  v = await shown(page);
  assert.equal(v['calc-predicted-levels-dram-bytes'], v['calc-models-compulsory-bytes']);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a decode: the star and the ledger tell the chart story (never compute-bound), a likely range bar around the star', async () => {
  for (const kernel of ['generic', 'fa3', 'flashinfer']) {
    const frag = `phase=decode&kv-len=4096&heads=32&kv-heads=8&head-dim=128${kernel === 'generic' ? '' : `&kernel=${kernel}`}`;
    const page = await openPage(env.browser.context, `${env.server.url}#${frag}`, { width: 1280, height: 800 });
    const v = await shown(page);
    const nat = nativeEval(flagsFromFragment(await hash(page)));
    assert.equal(v['predicted-limit'], nat.predicted.limit, `${kernel}: the verdict is core's`);
    assert.notEqual(v['predicted-limit'], 'compute', `${kernel}: a decode is not compute-bound`);
    assert.doesNotMatch(await page.textContent('[data-testid=ledger]'), /compute-bound/);
    close(Number(v['predicted-terms-occupancy']), nat.predicted.terms.occupancy, `${kernel} occupancy`);
    const bar = await page.evaluate(() => window.rooflab.chart('roofline').datasets.find((d) => d.rlId === 'predicted-band')?.data);
    if (nat.predicted.interval_s) {
      // the bar spans F / high … F / low at the star's intensity
      close(bar[0].y, nat.flops / nat.predicted.interval_s[1], `${kernel} band low`);
      close(bar[1].y, nat.flops / nat.predicted.interval_s[0], `${kernel} band high`);
      assert.match(await page.textContent('[data-testid=ledger]'), /likely .*held-out error on \d+ published points/);
    } else {
      assert.equal(bar, undefined, `${kernel}: no band without enough held-out points`);
      assert.match(await page.textContent('[data-testid=ledger]'), /no likely range/);
    }
    if (kernel === 'generic') {
      await page.screenshot({ path: join(ARTIFACTS, 'predicted-decode-1280x800.png') });
      await page.locator('[data-testid=ledger]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'predicted-decode-ledger-1280x800.png') });
    }
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  }
});

test('screenshots with the ledger in view: 1280×800 and 390×844, light and dark', async () => {
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      const page = await openPage(env.browser.context, `${env.server.url}#${FA3}&kernel=fa3&roofs=l2%2Cexp&levels=1`, { width: w, height: h, colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `predicted-chart-${w}x${h}-${scheme}.png`) });
      await page.locator('[data-testid=ledger]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `predicted-ledger-${w}x${h}-${scheme}.png`) });
      const box = await page.locator('[data-testid=ledger]').boundingBox();
      assert.ok(box.width <= w, `the ledger fits ${w} px (${box.width})`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `no horizontal scroll at ${w} px: ${overflow}`);
      assert.deepEqual(page.rlErrors, []);
      await page.close();
    }
  }
});

// Issue 20 items 3–5 in headless Chromium: import forms that don't guess (fields the file cannot
// supply empty and required, never the controls'; fields it supplies locked; plain labels, the
// ncu command folded with a copy button), links that carry the records (or say what they left
// out), the workspace file's round trip, a malformed link or workspace refused naming the JSON
// path with nothing loaded lost, and exports that stand alone (CSV columns, the PNG's legend and
// whole link, print layout, Markdown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, ARTIFACTS, ROOT, pageEnv, clearStored, recordsIdle } from './harness.mjs';

const EX = join(ROOT, 'data', 'examples');
const NCU = join(EX, 'ncu-raw-flash-fwd-h100.csv');
const GBENCH = join(EX, 'gbench-flash-attn-h100.json');
const GBREC = join(EX, 'gbench-flash-attn-h100.record.json');
const env = pageEnv({ scratch: 'share' });

const idle = recordsIdle;
const count = (page) => page.$eval('[data-testid="measured-count"]', (e) => Number(e.dataset.value));
const item = (i, testid) => `[data-testid="record-${i}"] [data-testid="${testid}"]`;
const listLength = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#records-list > li').length === k, n, { timeout: 60000 });

async function fresh(hash = '') {
  const page = await openPage(env.browser.context, `${env.server.url}${hash}`);
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  await idle(page);
  return page;
}

// A link opened in a browser that has none of the sender's records.
async function openFresh(url) {
  const page = await fresh();
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('html[data-ready="1"]');
  return page;
}


test('import form: fields the file cannot supply start empty and required, never the controls’; the file’s are locked', async () => {
  const page = await fresh('#batch=4&heads=32&seq=8192&head-dim=128&causal=1');
  await page.setInputFiles('[data-testid="input-upload"]', [NCU]);
  await page.waitForSelector('[data-testid="record-0"][data-value="asking"]');
  // none of the controls' values (B 4, H 32, N 8192, d 128, causal) copied in; each needed one marked
  // (the ncu file's kernel, flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, …, cutlass::half_t>>,
  // gives head dim 128, tile 128 × 64 and fp16: those are the file's, shown locked)
  for (const flag of ['batch', 'heads', 'seq', 'causal', 'pass']) {
    const [value, required] = await page.$eval(item(0, `import-${flag}`), (e) => [e.value, e.required]);
    assert.equal(value, '', `${flag} starts empty`);
    assert.equal(required, true, `${flag} is required`);
  }
  for (const [flag, v] of [['head-dim', '128'], ['dtype', 'fp16']]) {
    const [value, locked, hint] = await page.$eval(item(0, `import-${flag}`), (e) => [e.value, e.readOnly || e.disabled, e.closest('label').textContent]);
    assert.deepEqual([value, locked], [v, true], flag);
    assert.match(hint, /from the kernel name/);
  }
  assert.equal(await page.$eval(item(0, 'import-kv-heads'), (e) => e.placeholder), 'same as Query heads H');
  assert.equal(await page.getAttribute(item(0, 'import-preview'), 'data-value'), 'needs');
  assert.equal(await page.$eval(item(0, 'import-confirm'), (b) => b.disabled), true);
  assert.equal(await page.textContent(item(0, 'import-needs')), 'Needed before the points can be shown: Batch B (--batch), Query heads H (--heads), Sequence length N (--seq), Causal mask (--causal), Pass (--pass).');
  // plain labels, the flag a hint beside
  const label = await page.$eval(item(0, 'import-batch'), (e) => e.closest('label').textContent);
  assert.equal(label, 'Batch B *--batch');
  // the ncu command folded, with a copy button
  assert.equal(await page.$eval(item(0, 'import-ncu-details'), (d) => d.open), false);
  assert.match(await page.textContent(item(0, 'import-ncu-command')), /^ncu .*--csv --page raw/);
  assert.ok(await page.$(item(0, 'import-ncu-copy')));
  // answered: the points come
  for (const [flag, v] of [['batch', '4'], ['heads', '16'], ['seq', '4096']]) await page.fill(item(0, `import-${flag}`), v);
  await page.selectOption(item(0, 'import-causal'), 'false');
  await page.selectOption(item(0, 'import-pass'), 'fwd');
  await page.waitForSelector(`${item(0, 'import-preview')}[data-value="1"]`);
  assert.equal(await page.$eval(item(0, 'import-confirm'), (b) => b.disabled), false);
  await page.locator('[data-testid="record-0"]').screenshot({ path: join(ARTIFACTS, 'share-import-form.png') });
  // Google Benchmark: the names give B, N, H, d (the default argument order): shown locked
  await page.setInputFiles('[data-testid="input-upload"]', [GBENCH]);
  await page.waitForSelector('[data-testid="record-1"][data-value="asking"]');
  for (const flag of ['batch', 'seq', 'heads', 'head-dim']) {
    const [ro, value, hint] = await page.$eval(item(1, `import-${flag}`), (e) => [e.readOnly, e.value, e.closest('label').textContent]);
    assert.deepEqual([ro, value], [true, ''], flag);
    assert.match(hint, /from each benchmark’s name/);
  }
  // the dtype and pass may be in the names too (core reads a bf16/fp16 token, a forward/backward
  // word): not needed; whether it was causal is
  assert.deepEqual(await page.$eval(item(1, 'import-dtype'), (e) => [e.value, e.required, e.options[0].text]), ['', false, 'from the names where they say']);
  assert.deepEqual(await page.$eval(item(1, 'import-causal'), (e) => [e.value, e.required]), ['', true]);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a link carries small records; one too large is named as left out, and the recipient is told', async () => {
  const page = await fresh('#seq=8192');
  const small = await readFile(GBREC, 'utf8');
  // a record of 3,000 points, each its own time (far over the link's 8,000 characters compressed)
  const rec = JSON.parse(small);
  const p0 = rec.points[0];
  rec.points = Array.from({ length: 3000 }, (_, i) => {
    const p = { ...p0, label: `run ${i}`, timing: { median_s: p0.timing.median_s * (1 + ((i * 7919) % 1000) / 1e4), runs: 3 } };
    delete p.derived; // core's, recomputed
    delete p.reported;
    return p;
  });
  const big = join(env.tmp, 'big-run.json');
  await writeFile(big, JSON.stringify(rec, null, 1));
  await page.setInputFiles('[data-testid="input-upload"]', [GBREC, big]);
  await listLength(page, 2);
  await idle(page);
  await page.waitForFunction(() => [...document.querySelectorAll('#records-list > li')].every((e) => e.dataset.value === 'ok'));
  await page.click('[data-testid=action-copy-link]');
  await page.waitForSelector('[data-testid=link-status][data-put]');
  const url = await page.getAttribute('[data-testid=link-status]', 'data-value');
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-put'), '1');
  assert.equal(await page.getAttribute('[data-testid=link-status]', 'data-left'), '1');
  assert.match(await page.textContent('[data-testid=link-status]'), /Left out \(over the link’s 8,000-character limit for records\): big-run\.json \(3,000 points\)/);
  const recordsPart = new URL(url).hash.match(/records=([^&]*)/)[1];
  assert.ok(recordsPart.length <= 8000, `${recordsPart.length} characters`);
  assert.match(url, /#seq=8192&records=z/);
  await page.close();

  // the recipient: the small record loaded from the link (the same text), the big one said missing
  const got = await openFresh(url);
  await got.waitForSelector('[data-testid=share-notice][data-value^="missing"]', { timeout: 60000 });
  const notice = await got.textContent('[data-testid=share-notice]');
  assert.match(notice, /carried 1 record/);
  assert.match(notice, /referred to 1 record too large for a link, not in this browser: big-run\.json \(3,000 points\)/);
  await idle(got);
  assert.equal(await count(got), JSON.parse(small).points.length); // gbench example: 3 points
  assert.equal(await got.evaluate(() => window.rooflab.recordText(0)), small);
  assert.equal(await got.evaluate(() => window.rooflab.state.seq), '8192');
  await got.screenshot({ path: join(ARTIFACTS, 'share-link-missing.png') });
  assert.deepEqual(got.rlErrors, []);
  await got.close();
});

test('a malformed link says what is wrong and loads nothing; the state and what was loaded stay', async () => {
  const page = await fresh();
  await page.setInputFiles('[data-testid="input-upload"]', [GBREC]);
  await listLength(page, 1);
  await idle(page);
  // JSON that is not a records list: j = uncompressed base64url of {"records":[{"name":"a.json"}]}
  const bad = Buffer.from(JSON.stringify({ records: [{ name: 'a.json' }] })).toString('base64url');
  await page.goto(`${env.server.url}#seq=2048&records=j${bad}`);
  await page.waitForSelector('html[data-ready="1"]');
  await page.waitForSelector('[data-testid=share-notice][data-value=error]');
  assert.match(await page.textContent('[data-testid=share-notice]'), /records: \$\.records\[0\]\.text: expected the record's JSON text/);
  await idle(page);
  assert.equal(await count(page), 3); // the kept record still there
  assert.equal(await page.evaluate(() => window.rooflab.state.seq), '2048');
  // not base64url at all
  await page.goto(`${env.server.url}#seq=1024&records=z%21%21`);
  await page.waitForSelector('html[data-ready="1"]');
  await page.waitForSelector('[data-testid=share-notice][data-value=error]');
  assert.match(await page.textContent('[data-testid=share-notice]'), /not base64url: character 1 is “!”/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('workspace file: saved with the state and every record, opened by the picker and by a drop; a bad one names its JSON path', async () => {
  const page = await fresh('#seq=16384&heads=16&hw=a100-sxm4-80gb');
  await page.setInputFiles('[data-testid="input-upload"]', [GBREC, join(EX, 'ncu-raw-flash-fwd-h100.record.json')]);
  await listLength(page, 2);
  await idle(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=action-save-workspace]')]);
  assert.equal(dl.suggestedFilename(), 'rooflab-workspace.json');
  const path = join(env.tmp, 'ws.json');
  await dl.saveAs(path);
  const ws = JSON.parse(await readFile(path, 'utf8'));
  assert.equal(Object.keys(ws)[0], 'rooflab_workspace');
  assert.equal(ws.rooflab_workspace, 1);
  assert.equal(ws.state, 'seq=16384&heads=16&hw=a100-sxm4-80gb');
  assert.deepEqual(ws.records.map((r) => r.name), ['gbench-flash-attn-h100.record.json', 'ncu-raw-flash-fwd-h100.record.json']);
  assert.equal(ws.records[0].text, await readFile(GBREC, 'utf8'));
  await page.close();

  const got = await fresh();
  await got.setInputFiles('[data-testid=input-workspace]', [path]);
  await got.waitForSelector('[data-testid=share-notice][data-value="workspace:2"]');
  await listLength(got, 2);
  await idle(got);
  const st = await got.evaluate(() => window.rooflab.state);
  assert.deepEqual([st.seq, st.heads, st.hw], ['16384', '16', 'a100-sxm4-80gb']);
  assert.equal(await got.evaluate(() => window.rooflab.recordText(0)), await readFile(GBREC, 'utf8'));
  // a bad workspace dropped: refused whole, naming the path; nothing loaded is lost, the state stays
  const bad = { ...ws, state: 'seq=512', records: [ws.records[0], { name: 'x.json', text: 42 }] };
  await got.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'bad-workspace.json'));
    document.getElementById('records-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, JSON.stringify(bad));
  await got.waitForSelector('[data-testid=share-notice][data-value=error]');
  assert.equal(await got.textContent('[data-testid=share-notice]'), 'bad-workspace.json: not opened — $.records[1].text: expected the record\'s JSON text (a string). Nothing changed.');
  assert.equal(await got.evaluate(() => window.rooflab.state.seq), '16384');
  assert.equal(await got.$$eval('#records-list > li', (l) => l.length), 2);
  // a good one dropped opens (its records already here: not added twice)
  await got.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'ws.json'));
    document.getElementById('records-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, JSON.stringify({ ...ws, state: 'seq=2048' }));
  await got.waitForSelector('[data-testid=share-notice][data-value="workspace:2"]');
  await idle(got);
  assert.equal(await got.evaluate(() => window.rooflab.state.seq), '2048');
  assert.equal(await got.$$eval('#records-list > li', (l) => l.length), 2);
  assert.deepEqual(got.rlErrors, []);
  await got.close();
});

const parseCsvLine = (line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => (m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]));

test('CSV: each measured point with record, kernel, label, problem, time, achieved, efficiency, prediction', async () => {
  const page = await fresh();
  await page.setInputFiles('[data-testid="input-upload"]', [GBREC, join(ROOT, 'data', 'published', 'fa3-paper-h100.json')]);
  await listLength(page, 2);
  await idle(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=action-export-csv]')]);
  const lines = (await readFile(await dl.path(), 'utf8')).trim().split('\n');
  const header = parseCsvLine(lines[0]);
  assert.deepEqual(header, ['chart', 'series', 'x', 'y', 'x_unit', 'y_unit', 'swept_value', 'record', 'kernel', 'label',
    'batch', 'heads', 'kv_heads', 'seq', 'kv_len', 'head_dim', 'dtype', 'kv_dtype', 'causal', 'pass',
    'time_median_s', 'achieved_flops_per_s', 'efficiency', 'predicted_time_s', 'prediction_error']);
  const rows = lines.slice(1).map(parseCsvLine).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
  const measured = rows.filter((r) => r.record === 'gbench-flash-attn-h100.record.json');
  assert.equal(measured.length, 3);
  // the record's first point (data/examples/gbench-flash-attn-h100.record.json): B 4, H 16, N 2048,
  // d 128, bf16; median 0.2371 ms; 579.26 TFLOP/s achieved; at I ≈ 1024 FLOP/B, right of the H100
  // ridge 989/3.35 = 295 FLOP/B, its roof is π = 989 TFLOP/s: efficiency 579.26/989 = 0.5857
  const r0 = measured.find((r) => r.label === 'BM_flash_attn_fwd_bf16/4/2048/16/128/manual_time');
  assert.deepEqual([r0.batch, r0.heads, r0.seq, r0.head_dim, r0.dtype, r0.causal, r0.pass], ['4', '16', '2048', '128', 'bf16', 'false', 'fwd']);
  assert.equal(Number(r0.time_median_s), 0.0002371);
  assert.ok(Math.abs(Number(r0.achieved_flops_per_s) / 579.26e12 - 1) < 1e-5, r0.achieved_flops_per_s);
  assert.ok(Math.abs(Number(r0.efficiency) - 579.26 / 989) < 1e-4, r0.efficiency);
  assert.equal(r0.kernel, JSON.parse(await readFile(GBREC, 'utf8')).software.kernel); // the record names no kernel per point
  assert.deepEqual([r0.predicted_time_s, r0.prediction_error], ['', '']); // no profile named: no prediction
  // a published point with its own kernel and profile (data/published/fa3-paper-h100.json, points[0]):
  // F = 68,719,476,736 FLOP in 1.32153 ms → 68.719e9 / 1.32153e-3 = 52.0 TFLOP/s (the paper's bar: 52)
  const fa = measured.length && rows.find((r) => r.label === 'standard-attention-pytorch, fwd, d=64, non-causal (x-label 512)');
  assert.deepEqual([fa.record, fa.kernel, fa.batch, fa.seq, fa.head_dim], ['fa3-paper-h100.json', 'standard-attention-pytorch', '32', '512', '64']);
  assert.equal(Number(fa.time_median_s), 0.00132153);
  assert.ok(Math.abs(Number(fa.achieved_flops_per_s) / 52.0e12 - 1) < 0.001, fa.achieved_flops_per_s);
  // the prediction and its error: (predicted − measured) / measured
  assert.ok(Number(fa.predicted_time_s) > 0, fa.predicted_time_s);
  assert.ok(Math.abs(Number(fa.prediction_error) - (Number(fa.predicted_time_s) - 0.00132153) / 0.00132153) < 1e-9);
  // the model's series are still there
  assert.ok(rows.some((r) => r.chart === 'roofline' && r.series === 'tiled'));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// The PNG's width and height from its IHDR chunk.
const pngSize = (buf) => [buf.readUInt32BE(16), buf.readUInt32BE(20)];

test('PNG: a legend of the drawn series and the whole link, wrapped', async () => {
  const page = await fresh('#seq=16384&heads=32&kv-heads=8&head-dim=128&dtype=bf16&causal=1&hw=h200-sxm&bandwidth=4.8%20TB%2Fs&ceilings=fp32');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=action-export-png-roofline]')]);
  const png = await readFile(await dl.path());
  await writeFile(join(ARTIFACTS, 'share-export-roofline.png'), png);
  const fig = await page.evaluate(async () => (await import('./js/exports.js')).lastFigure);
  const canvas = await page.$eval('[data-testid=chart-roofline]', (c) => [c.width, c.height]);
  assert.deepEqual(pngSize(png), [canvas[0], fig.height]);
  assert.ok(fig.height > canvas[1] + 15 * (fig.legend.length + fig.caption.length), `${fig.height} vs ${canvas[1]}`);
  assert.ok(fig.legend.some((t) => /^ceiling: fp32/.test(t)), fig.legend.join(' | '));
  assert.ok(fig.legend.includes('compulsory') && fig.legend.includes('tiled'), fig.legend.join(' | '));
  // the link: every character of it, over as many lines as it takes
  const href = await page.evaluate(() => location.href);
  const joined = fig.caption.join('');
  assert.ok(joined.replace(/\s/g, '').includes(href.replace(/\s/g, '')), joined);
  assert.ok(fig.caption.length >= 3);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('print: controls hidden, the ledger table and a caption kept, list numbers not clipped', async () => {
  const page = await fresh('#seq=8192&heads=16');
  await page.emulateMedia({ media: 'print' });
  await page.waitForFunction(() => document.querySelector('[data-testid=print-caption]').textContent.includes('#seq=8192'));
  const shown = (sel) => page.$eval(sel, (e) => getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0);
  assert.equal(await shown('[data-testid=input-seq]'), false);
  assert.equal(await shown('[data-testid=labels-toggle]'), false);
  assert.equal(await shown('[data-testid=compare-toggle]'), false);
  assert.equal(await shown('[data-testid=action-export-png-roofline]'), false);
  assert.equal(await shown('[data-testid=print-caption]'), true);
  assert.equal(await shown('.ledger table'), true);
  assert.match(await page.textContent('[data-testid=print-caption]'), /^rooflab .*prefill · B 1 · H 16 .*N 8,192/);
  // the worked calculation's numbers 10 and up sit inside the page: padding for two digits
  const pad = await page.$eval('#worked ol', (o) => parseFloat(getComputedStyle(o).paddingLeft) / parseFloat(getComputedStyle(o).fontSize));
  assert.ok(pad >= 2.4, `list padding ${pad} em`);
  await page.screenshot({ path: join(ARTIFACTS, 'share-print.png'), fullPage: true });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('copy as Markdown: assumptions table, worked numbers, verdict, link', async () => {
  const page = await fresh('#seq=4096&heads=8&head-dim=64');
  await page.click('[data-testid=action-copy-markdown]');
  await page.waitForSelector('[data-testid=markdown-out]:not([hidden])');
  const md = await page.$eval('[data-testid=markdown-out]', (t) => t.value);
  await writeFile(join(ARTIFACTS, 'share-analysis.md'), md);
  assert.match(md, /^## rooflab .* — prefill · B 1 · H 8 · Hkv 8 · N 4,096 · L 4,096 · d 64 · fp16/);
  assert.match(md, /### Assumptions\n\n\| input \| value \| from \|\n\| --- \| --- \| --- \|\n/);
  assert.match(md, /\| Batch B \(--batch\) \| 1 \| default \|/);
  assert.match(md, /\| Sequence length N \(--seq\) \| 4,096 \| default \|/);
  assert.match(md, /\| bandwidth β \| 3\.35 TB\/s \| .* datasheet \|/);
  // the hand calculation: F = 4·B·H·N·L·d = 4·1·8·4096·4096·64 = 34,359,738,368 FLOP ≈ 34.36 GFLOP
  const worked = md.split('### Worked numbers')[1].split('###')[0];
  assert.match(worked, /\n1\. /);
  assert.match(worked, /\n10\. /);
  assert.match(worked, /\n3\. \*\*FLOPs[^*]*\*\*: F = 4 · B · H · d · P = 4 · 1 · 8 · 64 · 16,777,216 = 34\.36 GFLOP; /);
  assert.match(md, /### Verdict\n\n- compulsory: \*\*(memory|compute)-bound\*\* — its intensity [\d.,]+ FLOP\/B against the ridge I\* = π\/β = [\d.,]+ FLOP\/B/);
  assert.match(md, /- predicted \(profile \w+\): \*\*/);
  const href = await page.evaluate(() => location.href);
  assert.ok(md.includes(`Link: <${href}>`), md.slice(-300));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('compare mode draws the page’s device with the roof typed, and says the others are datasheet roofs', async () => {
  const page = await fresh('#hw=h100-sxm&bandwidth=2%20TB%2Fs&compare=h100-sxm,a100-sxm4-80gb');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-notes]').textContent.includes('typed'));
  const labels = await page.evaluate(() => window.rooflab.chart('roofline').datasets.filter((d) => d.rlId && d.rlId.startsWith('device-roof')).map((d) => d.label));
  // H100 SXM with the typed 2 TB/s (its datasheet: 3.35 TB/s), the A100 with its datasheet 2.039 TB/s
  assert.ok(labels.some((l) => /^NVIDIA H100 SXM5 80GB roof: 2 TB\/s · I/.test(l)), labels.join(' | '));
  assert.ok(labels.some((l) => /A100.* roof: 2\.039 TB\/s · I/.test(l)), labels.join(' | '));
  const notes = await page.textContent('[data-testid=compare-notes]');
  assert.match(notes, /H100 SXM5 80GB: the roof typed on the page \(β 2 TB\/s, datasheet π\)/);
  assert.match(notes, /A100 SXM4 80GB: datasheet roof/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

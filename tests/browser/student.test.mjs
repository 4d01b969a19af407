// A student's path (issue 20, item 6) in headless Chromium: one number format on the page (no
// e-notation in the worked calculation, the summary or an axis tick), the worked calculation in
// two parts (the roofline; predicting a real kernel, folded, its constants explained), tour
// questions about a state the text does not give, right/wrong styling as in Practice, a slip
// explained with both numbers, and a clickable "did you mean". Expected values are worked by hand
// in the comments. Screenshots: test-artifacts/student-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, clearStored, ARTIFACTS, pageEnv } from './harness.mjs';
import { SCENARIOS } from '../../web/js/scenarios.js';

const env = pageEnv();

// B = 1, H = 32, N = L = 65536, d = 128, fp16 on an H100. Compulsory traffic: Q, K, V, O once,
// 4 · 2 B · 32 · 65536 · 128 = 2,147,483,648 B; F = 4 · 32 · 128 · 65536² = 70,368,744,177,664;
// I = F / bytes = 4 · 65536² / (8 · 65536) = 32,768 FLOP/B — printed "3.277e+04 FLOP/B" before.
const BIG = '#seq=65536&heads=32&head-dim=128&hw=h100-sxm';

async function fresh(url) {
  const page = await openPage(env.browser.context, env.server.url);
  await clearStored(page);
  await page.goto(url);
  await page.waitForSelector('html[data-ready="1"]');
  await page.evaluate(() => window.rooflab.flush());
  return page;
}

test('student: numbers are grouped by three, never in e-notation, in the worked calculation and on the axis', async () => {
  const page = await fresh(`${env.server.url}${BIG}`);
  assert.equal(await page.textContent('[data-testid=calc-models-compulsory-intensity_flop_per_byte]'), '32,768 FLOP/B');
  // The x axis (intensity) reaches past 10⁴: its decade ticks say 10,000, not 1e4.
  const ticks = await page.evaluate(() => window.rooflab.chart('roofline', { points: false }).scales.x.ticks.flat().filter(Boolean));
  assert.ok(ticks.includes('10,000'), `x ticks: ${ticks.join(' | ')}`);
  for (const t of ticks) assert.doesNotMatch(String(t), /\de[+-]?\d/, `tick ${t}`);
  // Nowhere in the worked calculation or the page's visible text an e+04 or a 1e7.
  const text = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /\d(\.\d+)?e[+-]\d/, 'no e-notation in the page text');
  await page.screenshot({ path: join(ARTIFACTS, 'student-numbers.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('student: the worked calculation in two parts, the second folded with its constants explained', async () => {
  const page = await fresh(`${env.server.url}#kernel=fa3&hw=h100-sxm&head-dim=128`);
  const info = await page.evaluate(() => {
    const w = document.getElementById('worked');
    const adv = w.querySelector('[data-testid=worked-advanced]');
    return {
      basic: w.querySelectorAll('[data-testid=worked-basic] > li').length,
      firstPart: w.querySelector('[data-testid=worked-part-roofline]')?.textContent,
      summary: adv?.querySelector('summary')?.textContent,
      open: adv?.open,
      start: adv?.querySelector('ol')?.getAttribute('start'),
      constants: [...adv.querySelectorAll('[data-constant]')].map((e) => e.dataset.constant),
      rows: [...adv.querySelectorAll('ol > li')].map((li) => li.dataset.row),
      pText: adv.querySelector('[data-constant=p] + dd')?.textContent,
      basicRows: [...w.querySelectorAll('[data-testid=worked-basic] > li')].map((li) => li.dataset.row),
    };
  });
  assert.match(info.firstPart, /the roofline/);
  assert.equal(info.basic, 10, 'ten steps in part 1');
  assert.deepEqual(info.basicRows, ['problem', 'pairs', 'flops', 'tensors', 'traffic', 'intensity', 'ridge', 'attainable', 'bound-time', 'sram']);
  assert.match(info.summary, /predicting a real kernel/);
  assert.equal(info.open, false, 'part 2 starts folded');
  assert.equal(info.start, '11', 'part 2 numbers on from 11');
  for (const id of ['l2', 'exp', 'waves', 'occupancy', 'p']) assert.ok(info.constants.includes(id), `constant ${id} explained`);
  assert.match(info.pText, /p = 1 adds them/);
  for (const row of ['levels', 'exp', 'waves', 'memory', 'predicted-time']) assert.ok(info.rows.includes(row), `part 2 has ${row}`);
  // A printout has both parts: part 2's steps lifted out of the fold while printing, put back after.
  assert.deepEqual(await page.evaluate(() => {
    const d = document.querySelector('[data-testid=worked-advanced]');
    const ol = document.querySelector('[data-testid=worked-prediction]');
    window.dispatchEvent(new Event('beforeprint'));
    const during = d.contains(ol) || !ol.isConnected;
    window.dispatchEvent(new Event('afterprint'));
    return [during, d.contains(ol)];
  }), [false, true]);
  // The L2 reuse rule and p are in part 2, not part 1.
  assert.equal(await page.isVisible('[data-testid=calc-predicted-overlap_exponent]'), false);
  await page.click('[data-testid=worked-advanced] > summary');
  assert.equal(await page.isVisible('[data-testid=calc-predicted-overlap_exponent]'), true);
  // Unfolded stays unfolded when the page writes the calculation again (a control changes).
  await page.fill('[data-testid=input-seq]', '8192');
  await page.dispatchEvent('[data-testid=input-seq]', 'change');
  await page.evaluate(() => window.rooflab.flush());
  await page.waitForFunction(() => document.querySelector('[data-testid=calc-problem-seq]')?.dataset.value === '8192');
  assert.equal(await page.evaluate(() => document.querySelector('[data-testid=worked-advanced]').open), true);
  await page.locator('[data-testid=worked-advanced]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'student-worked.png'), fullPage: false });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// The feedback line after typing an answer.
async function answer(page, typed) {
  await page.fill('[data-testid=tour-answer]', typed);
  await page.press('[data-testid=tour-answer]', 'Enter');
  return page.evaluate(() => {
    const f = document.querySelector('[data-testid=tour-feedback]');
    return { text: f.textContent, cls: f.className, border: getComputedStyle(f).borderLeftColor, ...f.dataset };
  });
}

test('student: tour feedback styled right / wrong as in Practice; a binary-prefix slip named with both numbers', async () => {
  const s = SCENARIOS.find((x) => x.id === 'naive-vs-tiled-16k');
  const page = await fresh(`${env.server.url}?tour=${s.id}&step=${s.steps.length}`);
  // At N = 65536 (the question's state), H = 8, d = 64, fp16: compulsory = Q + K + V + O =
  // 4 · 2 B · 8 · 65536 · 64 = 268,435,456 B = 268.4 MB (by hand).
  let f = await answer(page, '268.4 MB');
  assert.equal(f.outcome, 'right', f.text);
  assert.match(f.cls, /\bpractice-verdict\b/);
  assert.match(f.cls, /\bright\b/);
  const rightBorder = f.border;
  // 268,435,456 B = 256 MiB; written "256 MB" it is 256,000,000 B = 0.9537 × it.
  f = await answer(page, '256 MB');
  assert.equal(f.outcome, 'wrong', f.text);
  assert.equal(f.slip, 'gib-vs-gb');
  assert.match(f.cls, /\bwrong\b/);
  assert.notEqual(f.border, rightBorder, 'wrong and right differ in colour');
  assert.match(f.text, /0\.9537× it: you used the decimal mega, 1,000,000, where the binary mebi, 1024 × 1024 = 1,048,576, was meant/);
  assert.doesNotMatch(f.text, /10\^3n|2\^10n/);
  // Practice's verdicts use the same colours.
  const practice = await page.evaluate(() => {
    const el = document.createElement('p');
    document.body.append(el);
    const out = {};
    for (const c of ['right', 'wrong']) { el.className = `practice-verdict ${c}`; el.textContent = 'x'; out[c] = getComputedStyle(el).borderLeftColor; }
    el.remove();
    return out;
  });
  assert.equal(rightBorder, practice.right);
  assert.equal(f.border, practice.wrong);
  await page.locator('#tour-panel').screenshot({ path: join(ARTIFACTS, 'student-tour-wrong.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('student: no closing question is answered by a number shown in its tour step', async () => {
  const page = await fresh(env.server.url);
  for (const s of SCENARIOS) {
    await page.goto(`${env.server.url}?tour=${s.id}&step=${s.steps.length}`);
    await page.waitForSelector('html[data-ready="1"]');
    const q = s.steps.at(-1).question;
    assert.ok(q.at && Object.keys(q.at).length > 0, `${s.id}: the question is about a state the text does not give`);
    await page.click('[data-testid=tour-reveal]');
    const r = await page.evaluate(() => {
      const f = document.querySelector('[data-testid=tour-feedback]');
      const shown = [...document.querySelectorAll('#tour-step [data-value], #tour-look [data-value]')].map((e) => Number(e.dataset.value));
      const page = [...document.querySelectorAll(`#worked [data-value], #ledger [data-value]`)].map((e) => Number(e.dataset.value));
      return { value: Number(f.dataset.value), shown, page, outcome: f.dataset.outcome };
    });
    assert.equal(r.outcome, 'shown', s.id);
    assert.ok(Number.isFinite(r.value) && r.value > 0, `${s.id}: an answer is shown`);
    const same = (x) => Math.abs(x - r.value) <= 1e-9 * Math.abs(r.value);
    assert.ok(!r.shown.some(same), `${s.id}: the answer ${r.value} is printed in the step`);
  }
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('student: "did you mean 2039 GB/s?" is a button that applies it; the chart keeps the last good value until then', async () => {
  const page = await fresh(`${env.server.url}#hw=a100-sxm4-80gb`);
  const ridge = () => page.evaluate(() => document.querySelector('[data-testid=calc-ridge_flop_per_byte]').dataset.value);
  const before = await ridge();
  // As a person does it: type, Enter (the focus stays in the field), then press the button —
  // leaving the field commits it again and rewrites the error; the press still lands.
  await page.fill('[data-testid=input-bandwidth]', '2039');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  await page.evaluate(() => window.rooflab.flush());
  await page.waitForSelector('[data-testid=did-you-mean]');
  const err = await page.textContent('[data-testid=error-bandwidth]');
  assert.match(err, /did you mean "2039 GB\/s"\?/);
  assert.match(err, /the chart still shows the last good value/);
  assert.equal(await page.textContent('[data-testid=did-you-mean]'), 'Use 2039 GB/s');
  assert.equal(await ridge(), before, 'the chart keeps the last good value');
  await page.locator('#controls').screenshot({ path: join(ARTIFACTS, 'student-did-you-mean.png') });
  await page.click('[data-testid=did-you-mean]');
  await page.evaluate(() => window.rooflab.flush());
  assert.equal(await page.inputValue('[data-testid=input-bandwidth]'), '2039 GB/s');
  assert.equal(await page.isVisible('[data-testid=error-bandwidth]'), false);
  // The A100 80GB's dense fp16 peak 312 TFLOP/s over 2039 GB/s: 312e12 / 2039e9 = 153.02 FLOP/B.
  const r = Number(await ridge());
  assert.ok(Math.abs(r - 312e12 / 2039e9) < 1e-9 * r, `ridge ${r}`);
  // The keyboard: type, Enter (the error and its button), Tab to the button (the field commits
  // again on leaving and rewrites the error), Enter.
  await page.fill('[data-testid=input-bandwidth]', '1555');
  await page.press('[data-testid=input-bandwidth]', 'Enter');
  await page.evaluate(() => window.rooflab.flush());
  await page.press('[data-testid=input-bandwidth]', 'Tab');
  await page.evaluate(() => window.rooflab.flush());
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'did-you-mean');
  await page.keyboard.press('Enter');
  await page.evaluate(() => window.rooflab.flush());
  assert.equal(await page.inputValue('[data-testid=input-bandwidth]'), '1555 GB/s');
  // 312e12 / 1555e9 = 200.64 FLOP/B
  const r2 = Number(await ridge());
  assert.ok(Math.abs(r2 - 312e12 / 1555e9) < 1e-9 * r2, `ridge ${r2}`);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

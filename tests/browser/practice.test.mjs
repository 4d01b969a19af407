// The practice mode (web/js/practice.js) in headless Chromium: the exercise a seed draws is the one
// `rooflab quiz --seed N` draws; a right answer in other units is accepted; each slip is named with
// the same verdict as the CLI's; the URL seed reproduces the exercise; a keyboard-only path (open,
// answer, next, close); the score kept in localStorage, a corrupt entry dropped with a message;
// screenshots (test-artifacts/practice-*.png) at 1280×800 and 390×844, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openPage, ARTIFACTS, pageEnv } from './harness.mjs';
import { nativeCli } from '../wasm/load.mjs';

const env = pageEnv();

// `rooflab quiz ... --json` → the parsed object (exit 1 for a wrong answer is not an error here).
function cliQuiz(args) {
  try {
    return JSON.parse(execFileSync(nativeCli(), ['quiz', ...args, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch (e) {
    if (e.status === 1 || e.status === 2) return JSON.parse(e.stdout);
    throw e;
  }
}

async function open(query, opts = {}) {
  const page = await openPage(env.browser.context, `${env.server.url}${query}`, opts);
  await page.waitForSelector('html[data-practice-ready="1"]', { timeout: 20000 });
  return page;
}

const text = (page, id) => page.getByTestId(id).textContent();

async function answer(page, value) {
  await page.getByTestId('practice-answer').fill(value);
  await page.getByTestId('practice-answer').press('Enter');
  const v = page.getByTestId('practice-verdict');
  return { text: await v.textContent(), outcome: await v.getAttribute('data-outcome'), slip: await v.getAttribute('data-slip') };
}

test('the URL seed reproduces the exercise the CLI draws; right answers in other units', async () => {
  const page = await open('?practice=9&practice-kind=time');
  assert.equal(await page.getByTestId('practice-panel').isVisible(), true);
  const j = cliQuiz(['--seed', '9', '--kind', 'time']);
  assert.equal(await text(page, 'practice-question'), j.question);
  assert.equal(await text(page, 'practice-setup'), j.setup);
  assert.match(j.setup, /RTX 4090/);
  // 207.99 µs: F / π = 4·2·16·64·2048² / 165.2 TFLOP/s (by hand; the compute side is longer).
  for (const a of ['208 µs', '0.208 ms', '207990 ns', '2.08e-4 s']) {
    const v = await answer(page, a);
    assert.equal(v.outcome, 'right', `${a}: ${v.text}`);
    assert.match(v.text, /within 2 %/);
  }
  assert.equal(await page.getByTestId('practice-score').getAttribute('data-right'), '1');
  assert.equal(await page.getByTestId('practice-score').getAttribute('data-tried'), '1');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('each slip is named, with the CLI\'s verdict', async () => {
  // Seed 9: prefill B = 2, H = 16, Hkv = 4, N = L = 2048, d = 64, fp16, RTX 4090; by hand:
  // F = 34.36 GFLOP, compulsory 20.97 MB (K, V for all 16 heads: 33.55 MB; fp32: 41.94 MB),
  // t = 208 µs (F/π) against bytes/β = 20.81 µs, ridge 165.2 / 1.008 = 163.9 FLOP/B.
  const cases = [
    ['flops', '17.18 GFLOP', 'mac-vs-flop', /step 2 .*half of it: did you count multiply-adds instead of FLOPs\?/],
    ['flops', '34.36 MFLOP', 'prefix', /1\/1,000 of it/],
    ['flops', '8.59 GFLOP', 'gqa', /H query heads/],
    ['bytes', '20.97 Mb', 'bits-vs-bytes', /bits and bytes/],
    // 20.97 MiB = 20.97 × 1,048,576 B: 1.049 × the decimal 20.97 MB, named with both numbers.
    ['bytes', '20.97 MiB', 'gib-vs-gb', /1\.049× it: you used the binary mebi, 1024 × 1024 = 1,048,576, where the decimal mega, 1,000,000, was meant/],
    ['bytes', '33.55 MB', 'gqa', /b_kv·B·Hkv·L·d/],
    ['bytes', '41.94 MB', 'dtype-size', /fp32 4, fp16 and bf16 2/],
    ['bytes', '3 ms', 'dimension', /the question asks for bytes/],
    ['time', '20.81 us', 'other-side', /the larger of the two/],
    ['ridge', '327.8 FLOP/B', 'sparse-peak', /sparse/],
    ['ridge', '0.0061 FLOP/B', 'inverted', /not bytes over FLOPs/],
    ['regime', 'memory', 'regime', /step 7/],
    ['flops', '34.36', 'none', /needs a unit: did you mean "34.36 GFLOP"\?/],
  ];
  const page = await open('?practice=9');
  const score = page.getByTestId('practice-score');
  const [right0, tried0] = [Number(await score.getAttribute('data-right')), Number(await score.getAttribute('data-tried'))];
  for (const [kind, a, slip, re] of cases) {
    await page.getByTestId('practice-kind').selectOption(kind);
    assert.equal(await page.getByTestId('practice-panel').getAttribute('data-seed'), '9');
    const v = await answer(page, a);
    const j = cliQuiz(['--seed', '9', '--kind', kind, '--answer', a]);
    assert.equal(v.slip, slip, `${kind} ${a}: ${v.text}`);
    assert.match(v.text, re);
    assert.equal(v.text, j.verdict.text);
    assert.equal(v.outcome, j.verdict.outcome);
  }
  assert.match(page.url(), /practice=9&practice-kind=flops/);
  // Each exercise (seed and kind) counts its first readable answer once; unreadable ones never.
  assert.equal(Number(await score.getAttribute('data-right')), right0);
  assert.equal(Number(await score.getAttribute('data-tried')), tried0 + 5);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('a keyboard-only path: open, answer, next, close', async () => {
  const page = await open('');
  let found = false;
  for (let i = 0; i < 12 && !found; i++) {
    await page.keyboard.press('Tab');
    found = await page.evaluate(() => document.activeElement?.dataset.testid === 'practice-open');
  }
  assert.ok(found, 'Practice is reachable with Tab from the top');
  await page.keyboard.press('Enter');
  assert.equal(await page.getByTestId('practice-panel').isVisible(), true);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'practice-answer');
  const seed = await page.getByTestId('practice-panel').getAttribute('data-seed');
  assert.match(page.url(), new RegExp(`practice=${seed}`));
  const j = cliQuiz(['--seed', seed, '--solution']);
  assert.equal(await text(page, 'practice-question'), j.question);
  await page.keyboard.type(j.expected_text);
  await page.keyboard.press('Enter');
  assert.equal(await page.getByTestId('practice-verdict').getAttribute('data-outcome'), 'right');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'practice-next');
  await page.keyboard.press('Enter');
  const next = await page.getByTestId('practice-panel').getAttribute('data-seed');
  assert.notEqual(next, seed);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'practice-answer');
  assert.equal(await text(page, 'practice-verdict'), '');
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('practice-panel').isHidden(), true);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'practice-open');
  assert.doesNotMatch(page.url(), /practice=/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the score is kept in localStorage; a corrupt entry is dropped with a message', async () => {
  const page = await open('');
  await page.evaluate(() => localStorage.setItem('rooflab.practice.v1', JSON.stringify({ v: 1, right: 2, tried: 3 })));
  await page.reload();
  await page.waitForSelector('html[data-practice-ready="1"]');
  await page.getByTestId('practice-open').click();
  assert.equal(await text(page, 'practice-score'), 'Score: 2 / 3 right first time');
  assert.equal(await page.getByTestId('practice-note').isHidden(), true);
  await page.evaluate(() => localStorage.setItem('rooflab.practice.v1', '{"v":1,"right":5,"tried":3}'));
  await page.reload();
  await page.waitForSelector('html[data-practice-ready="1"]');
  await page.getByTestId('practice-open').click();
  assert.equal(await text(page, 'practice-score'), 'Score: 0 / 0 right first time');
  assert.match(await text(page, 'practice-note'), /could not be read \(more right than tried\)/);
  assert.equal(await page.evaluate(() => localStorage.getItem('rooflab.practice.v1')), null);
  // A bad seed in the URL is named with core's message and a new exercise drawn.
  const bad = await open('?practice=12abc');
  assert.match(await text(bad, 'practice-note'), /practice: expected a whole number 0 to 4294967295, got "12abc"/);
  assert.equal(await bad.getByTestId('practice-panel').isVisible(), true);
  assert.deepEqual([...page.rlErrors, ...bad.rlErrors], []);
  await page.close();
  await bad.close();
});

test('"Show on the chart" loads the exercise\'s problem into the page', async () => {
  const page = await open('?practice=9&practice-kind=flops');
  await answer(page, '17.18 GFLOP');
  await page.getByTestId('practice-show').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="input-heads"]').value === '16');
  assert.equal(await page.getByTestId('input-kv-heads').inputValue(), '4');
  assert.equal(await page.getByTestId('input-hw').inputValue(), 'rtx4090');
  assert.equal(Number(await page.getByTestId('flops').getAttribute('data-value')), 4 * 2 * 16 * 64 * 2048 * 2048);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('screenshots at 1280×800 and 390×844, light and dark', async () => {
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      const page = await open('?practice=9&practice-kind=flops', { width: w, height: h, colorScheme: scheme });
      await answer(page, '17.18 GFLOP');
      await page.locator('#practice-solution-box summary').click();
      await page.getByTestId('practice-panel').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `practice-${w}x${h}-${scheme}.png`) });
      assert.deepEqual(page.rlErrors, []);
      await page.close();
    }
  }
});

// Issue 21, items 6 and 15: an answer with a direction override (U+202E) is quoted in the verdict
// with the character named, as the CLI prints it (core's one escaper), so the verdict line is not
// reversed; a 100,000-character answer reaches core whole and is called by its own length.
function cliStderr(args) {
  try {
    execFileSync(nativeCli(), ['quiz', ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    return '';
  } catch (e) {
    return e.stderr;
  }
}

test('an answer with RLO or invisible characters: named in the verdict as the CLI names them', async () => {
  const page = await open('?practice=1&practice-kind=regime');
  const rlo = '\u202ememory';
  const v = await answer(page, rlo);
  assert.equal(v.outcome, 'unreadable');
  // by hand: the answer quoted with U+202E named, then core's expected forms
  assert.equal(v.text, 'answer: "<U+202E RIGHT-TO-LEFT OVERRIDE>memory": expected memory or compute (or memory-bound, bandwidth-bound, compute-bound)');
  // the CLI's own line for the same answer (stderr, after its "rooflab quiz: " prefix)
  assert.equal(v.text, cliStderr(['--seed', '1', '--kind', 'regime', '--answer', rlo]).trim().replace(/^rooflab quiz: /, ''));
  // nothing that changes direction or hides reaches the page's text
  assert.doesNotMatch(await page.getByTestId('practice-verdict').textContent(), /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\u00a0\u061c]/);
  for (const [typed, named] of [['\u200bcompute', '<U+200B ZERO WIDTH SPACE>compute'], ['mem\u00a0ory', 'mem<U+00A0 NO-BREAK SPACE>ory'], ['\u061ccompute', '<U+061C ARABIC LETTER MARK>compute']]) {
    const w = await answer(page, typed);
    assert.ok(w.text.startsWith(`answer: "${named}"`), w.text);
  }
  await page.getByTestId('practice-panel').screenshot({ path: join(ARTIFACTS, 'practice-rlo.png') });
  // 100,000 characters: the whole answer reaches core, which gives its length (not the 4,095 of a
  // scratch buffer)
  const long = await answer(page, 'm'.repeat(100000));
  assert.match(long.text, /^answer: "m{64}\.\.\. \(100000 characters\)": expected memory or compute/);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// Calls across the WASM boundary per slider move (issue 19: at most 30 with every panel open):
// counted, not timed. The page formats its numbers in JS with core's unit table (units.js) and asks
// core's pure look-ups once per arguments (model.js), so a move of N costs the parse of the one
// field that changed, the evaluation, the tile search and what the drawn panels need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, pageEnv, sliderMoveCalls } from './harness.mjs';

const env = pageEnv();

// Moves N until a move also writes the worked calculation (its observer fires once it is on
// screen), and returns that move's WASM calls; the calculation shows the N moved to.
async function moveShown(page) {
  let calls;
  for (let i = 0; i < 50; i++) {
    calls = await sliderMoveCalls(page, 'seq');
    const n = await page.locator('[data-testid=input-seq]').inputValue();
    if (calls.seqShown === n) break;
    await page.waitForTimeout(100);
  }
  assert.equal(calls.seqShown, await page.locator('[data-testid=input-seq]').inputValue(), 'the worked calculation was rendered in the move');
  return calls;
}

test('calls-per-move: a move of N with the worked calculation, the ledger, both roofs and the levels shown', async () => {
  // The predicted time (fa3), the L2 and exp roofs and the per-level points all drawn.
  const page = await openPage(env.browser.context, `${env.server.url}#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1`);
  await page.locator('[data-testid=worked]').scrollIntoViewIfNeeded();
  // The worked calculation is written in the move once it is on screen (its observer has fired).
  const calls = await moveShown(page);
  assert.ok(calls.byName._rlw_report >= 1, 'the move evaluated the model');
  assert.ok(calls.total <= 30, `${calls.total} calls into WASM in one move: ${JSON.stringify(calls.byName)}`);
  assert.equal(calls.byName._rlw_format, undefined, 'no number formatted across the boundary');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('calls-per-move-layer: a move of N with a model chosen and every panel drawn (worked calculation, ledger, whole layer)', async () => {
  // Llama 3.1 8B in prefill: the whole-layer view draws its 12 operators, their marks and the roof.
  const page = await openPage(env.browser.context, `${env.server.url}#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1&model=llama-3.1-8b`);
  await page.locator('[data-testid=worked]').scrollIntoViewIfNeeded();
  const stepTime = () => page.$eval('[data-testid=layer-step-time]', (e) => Number(e.dataset.value));
  const before = await stepTime();
  assert.ok(before > 0, 'the whole-layer view shows a step before the move');
  const calls = await moveShown(page);
  // Every panel was drawn in the move: the ledger has its rows, the layer view a new step (prefill:
  // one more token of N makes the step longer).
  assert.ok(await page.locator('[data-testid=ledger] tr').count() > 0, 'the ledger is drawn');
  assert.ok(await stepTime() > before, 'the whole-layer view followed the move');
  assert.equal(calls.byName._rlw_layer_step, 1, 'one layer step per move');
  assert.equal(calls.byName._rlw_layer_fill, 1, "every operator's numbers in one call");
  assert.equal(calls.byName._rlw_layer_text, 1, "every operator's names in one call");
  assert.ok((calls.byName._rlw_attainable || 0) <= 3, `attainable asked ${calls.byName._rlw_attainable} times (the roof line's points only)`);
  assert.ok(calls.total <= 30, `${calls.total} calls into WASM in one move: ${JSON.stringify(calls.byName)}`);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

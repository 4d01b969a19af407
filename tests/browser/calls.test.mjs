// Calls across the WASM boundary per slider move (issue 19: at most 30 with every panel open):
// counted, not timed. The page formats its numbers in JS with core's unit table (units.js) and asks
// core's pure look-ups once per arguments (model.js), so a move of N costs the parse of the one
// field that changed, the evaluation, the tile search and what the drawn panels need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, pageEnv, sliderMoveCalls } from './harness.mjs';

const env = pageEnv();

test('calls-per-move: a move of N with the worked calculation, the ledger, both roofs and the levels shown', async () => {
  // The predicted time (fa3), the L2 and exp roofs and the per-level points all drawn.
  const page = await openPage(env.browser.context, `${env.server.url}#seq=4096&causal=1&kernel=fa3&roofs=l2%2Cexp&levels=1`);
  await page.locator('[data-testid=worked]').scrollIntoViewIfNeeded();
  // The worked calculation is written in the move once it is on screen (its observer has fired).
  let calls;
  for (let i = 0; i < 50; i++) {
    calls = await sliderMoveCalls(page, 'seq');
    const n = await page.locator('[data-testid=input-seq]').inputValue();
    if (calls.seqShown === n) break;
    await page.waitForTimeout(100);
  }
  assert.equal(calls.seqShown, await page.locator('[data-testid=input-seq]').inputValue(), 'the worked calculation was rendered in the move');
  assert.ok(calls.byName._rlw_report >= 1, 'the move evaluated the model');
  assert.ok(calls.total <= 30, `${calls.total} calls into WASM in one move: ${JSON.stringify(calls.byName)}`);
  assert.equal(calls.byName._rlw_format, undefined, 'no number formatted across the boundary');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

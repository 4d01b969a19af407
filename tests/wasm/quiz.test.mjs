// The exercises through WASM (model.js) against the native `rooflab quiz`: the same seed draws the
// same question, expected value and solution, and an answer gets the same verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadWasmModel, nativeCli } from './load.mjs';

const model = await loadWasmModel();
const cli = (args) => {
  try {
    return { rc: 0, j: JSON.parse(execFileSync(nativeCli(), ['quiz', ...args, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) };
  } catch (e) {
    return { rc: e.status, j: JSON.parse(e.stdout) };
  }
};

test('a seed draws the same exercise natively and in WASM', () => {
  for (const seed of [0, 1, 2, 9, 42, 123456, 4294967295]) {
    const { j } = cli(['--seed', String(seed), '--solution']);
    const q = model.drawQuiz(seed);
    assert.equal(q.ok, true);
    assert.equal(q.kind, j.kind);
    assert.equal(q.setup, j.setup);
    assert.equal(q.question, j.question);
    assert.equal(q.expectedText, j.expected_text);
    assert.deepEqual(q.steps, j.solution);
    assert.equal(q.problem.heads, j.problem.heads);
    assert.equal(q.hw, j.hw);
  }
});

test('answers get the same verdict natively and in WASM', () => {
  const cases = [['time', '208 us', 0], ['time', '104 us', 1], ['flops', '17.18 GFLOP', 1],
    ['bytes', '20 MiB', 0], ['bytes', '20.97 Mb', 1], ['regime', 'memory', 1]];
  for (const [kind, answer, rc] of cases) {
    const { rc: got, j } = cli(['--seed', '9', '--kind', kind, '--answer', answer]);
    const v = model.checkQuiz(model.drawQuiz(9, kind), answer);
    assert.equal(got, rc, answer);
    assert.equal(v.outcome, j.verdict.outcome);
    assert.equal(v.slip, j.verdict.slip);
    assert.equal(v.text, j.verdict.text);
  }
});

test('seeds and unreadable answers are refused with core\'s messages', () => {
  for (const bad of ['', '-1', '1.5', '4294967296', '12abc']) {
    const r = model.parseQuizSeed(bad);
    assert.equal(r.ok, false);
    assert.match(r.message, /^practice: expected a whole number 0 to 4294967295/);
  }
  assert.equal(model.drawQuiz(1.5).ok, false);
  const v = model.checkQuiz(model.drawQuiz(9, 'flops'), '34.4');
  assert.equal(v.outcome, 'unreadable');
  assert.match(v.text, /did you mean "34\.4 GFLOP"\?/);
});

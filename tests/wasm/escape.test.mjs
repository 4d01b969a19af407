// rlw_text_escape: core's one escaper (rl_text_escape) as the page gets it through WASM (issue 21):
// the same named forms as the CLI's messages, for the page helper's practice verdicts and echoes.
// Expected strings written by hand from the Unicode names (UnicodeData.txt); the native CLI's
// echo of the same text is compared too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nativeCli, WASM_DIR } from './load.mjs';

async function module() {
  const { default: createRooflab } = await import(pathToFileURL(join(WASM_DIR, 'rooflab.mjs')).href);
  return createRooflab({ wasmBinary: await readFile(join(WASM_DIR, 'rooflab.wasm')) });
}

function escape(M, text, maxBytes = 0) {
  const n = M.lengthBytesUTF8(text) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(text, p, n);
  const q = M._rlw_text_escape(p, maxBytes);
  const out = M.UTF8ToString(q);
  M._free(q);
  M._free(p);
  return out;
}

test('rlw_text_escape names invisible and direction characters, escapes controls', async () => {
  const M = await module();
  const cases = [
    ['a\u202eb', 'a<U+202E RIGHT-TO-LEFT OVERRIDE>b'],
    ['2039\u00a0GB/s', '2039<U+00A0 NO-BREAK SPACE>GB/s'],
    ['\u200e\u200f\u061c', '<U+200E LEFT-TO-RIGHT MARK><U+200F RIGHT-TO-LEFT MARK><U+061C ARABIC LETTER MARK>'],
    ['x\u200by\u202fz\u2009', 'x<U+200B ZERO WIDTH SPACE>y<U+202F NARROW NO-BREAK SPACE>z<U+2009 THIN SPACE>'],
    ['\u2067iso\u2069', '<U+2067 RIGHT-TO-LEFT ISOLATE>iso<U+2069 POP DIRECTIONAL ISOLATE>'],
    ['a\nb\x1b]0;t\x07', 'a\\nb\\x1b]0;t\\x07'],
    ['c1 \u009b31m', 'c1 <U+009B C1 CONTROL>31m'],
    ['plain é — 😀', 'plain é — 😀'],
  ];
  for (const [input, want] of cases) assert.equal(escape(M, input), want, JSON.stringify(input));
  // clipped on a whole form: 12 bytes hold "a" and "...", never half of "<U+202E ...>"
  assert.equal(escape(M, 'a\u202eb', 12), 'a...');
});

test('the page and the CLI escape alike (the CLI echoes an unknown argument)', async () => {
  const M = await module();
  for (const text of ['x\u202ey', 'a\u00a0b', '\u200bz', 'q\x1b[2Jw']) {
    let err = '';
    try {
      execFileSync(nativeCli(), ['tune', text], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      err = e.stderr.toString('utf8');
    }
    assert.ok(err.includes(`"${escape(M, text)}"`), `${JSON.stringify(text)}: ${err}`);
  }
});

// scripts/finish-web.mjs (issue 20, item 7: page transfer and first number): comments out of the
// page's own JavaScript with every line at its number and every token kept, and the preload links
// for the first number in index.html; then the built page as build-web.sh leaves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ROOT, WEB } from './harness.mjs';
import { stripComments, importGraph, withPreloads } from '../../scripts/finish-web.mjs';

test('stripComments: comments go, strings, regexes and templates stay, lines keep their numbers', () => {
  const src = [
    '// a file comment',
    "const url = 'http://x/*y*/'; // a tail",
    'const re = /\\/\\*[^*]*\\*\\//g; /* one line */ const n = 1/**/+/**/2;',
    '/* a block',
    '   over two more lines */',
    'const t = `// not a comment  ',
    '/* nor this */`;',
    'export { url, re, n, t };   ',
  ].join('\n');
  const want = [
    '',
    "const url = 'http://x/*y*/'; ", // the blank before the comment stays (see below)
    'const re = /\\/\\*[^*]*\\*\\//g;   const n = 1 + 2;',
    '',
    '',
    'const t = `// not a comment  ',
    '/* nor this */`;',
    'export { url, re, n, t };   ',
  ].join('\n');
  // The template literal holds trailing blanks: trimming would change it, so lines keep theirs.
  assert.equal(stripComments(src), want);
  assert.equal(stripComments(src).split('\n').length, src.split('\n').length);
  // Without a template: trailing blanks trimmed too.
  assert.equal(stripComments('let a = 1;   // x\nlet b = 2; \n'), 'let a = 1;\nlet b = 2;\n');
  // a/**/instanceof/**/B must not become ainstanceofB: the block comment leaves a space.
  assert.equal(stripComments('const ok = a/**/instanceof/**/B;'), 'const ok = a instanceof B;');
  assert.throws(() => stripComments('let = ;'), SyntaxError);
});

test('importGraph and withPreloads: the static graph once each, the links before the first script', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rooflab-finish-'));
  try {
    await mkdir(join(dir, 'js'));
    await mkdir(join(dir, 'wasm'));
    await writeFile(join(dir, 'js', 'main.js'), "import a from './a.js';\nimport { b } from './b.js';\nimport('./lazy.js');\n");
    await writeFile(join(dir, 'js', 'a.js'), "import { b } from './b.js';\nimport m from '../wasm/m.mjs';\nexport default b + m;\n");
    await writeFile(join(dir, 'js', 'b.js'), "export { c as b } from './c.js';\n");
    await writeFile(join(dir, 'js', 'c.js'), 'export const c = 1;\n');
    await writeFile(join(dir, 'wasm', 'm.mjs'), 'export default 2;\n');
    // Dynamic imports are not preloaded: loaded when needed, not for the first number.
    assert.deepEqual(importGraph(dir, join(dir, 'js', 'main.js')), ['js/main.js', 'js/a.js', 'js/b.js', 'js/c.js', 'wasm/m.mjs']);
    await writeFile(join(dir, 'js', 'c.js'), "import './gone.js';\n");
    assert.throws(() => importGraph(dir, join(dir, 'js', 'main.js')), /js\/c\.js imports \.\/gone\.js, which is missing/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const html = '<head>\n  <link rel="stylesheet" href="s.css">\n  <script src="v.js" defer></script>\n</head><body><script>x</script></body>';
  assert.equal(withPreloads(html, ['js/main.js', 'js/a.js'], ['wasm/m.wasm']),
    '<head>\n  <link rel="stylesheet" href="s.css">\n  <link rel="preload" href="wasm/m.wasm" as="fetch" crossorigin>\n' +
    '  <link rel="modulepreload" href="js/main.js">\n  <link rel="modulepreload" href="js/a.js">\n  <script src="v.js" defer></script>\n</head><body><script>x</script></body>');
  assert.throws(() => withPreloads('<head></head><body><script></script></body>', [], []), /no <script> in its <head>/);
});

test('the built page: its own JavaScript without comments, line for line; the graph preloaded', { skip: !existsSync(join(WEB, 'index.html')) && 'no built page' }, async () => {
  for (const f of (await readdir(join(ROOT, 'web', 'js'))).filter((n) => n.endsWith('.js'))) {
    const src = await readFile(join(ROOT, 'web', 'js', f), 'utf8');
    const built = await readFile(join(WEB, 'js', f), 'utf8');
    assert.equal(built.split('\n').length, src.split('\n').length, `${f}: lines kept`);
    assert.ok(built.length < src.length || !/\/\/|\/\*/.test(src), `${f}: comments removed`);
  }
  // main.js's opening comment is gone, its imports are there.
  const main = await readFile(join(WEB, 'js', 'main.js'), 'utf8');
  assert.doesNotMatch(main, /wires the page together/);
  assert.match(main, /import createRooflab from '\.\.\/wasm\/rooflab\.mjs';/);
  const html = await readFile(join(WEB, 'index.html'), 'utf8');
  const pre = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  for (const m of ['js/main.js', 'wasm/rooflab.mjs', 'js/model.js', 'js/controller.js']) assert.ok(pre.includes(m), `${m} preloaded`);
  assert.equal(new Set(pre).size, pre.length, 'each module once');
  assert.match(html, /<link rel="preload" href="wasm\/rooflab\.wasm" as="fetch" crossorigin>/);
  assert.ok(html.indexOf('rel="preload"') < html.indexOf('<script'), 'before the first script');
  // The worker's own module is not part of the first load.
  assert.ok(!pre.includes('js/records-worker.js'));
});

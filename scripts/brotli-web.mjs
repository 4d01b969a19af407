#!/usr/bin/env node
// A brotli copy (FILE.br) beside each FILE named on the command line, for scripts/build-web.sh:
// quality 11, a 16 MiB window (the largest), node's own zlib (no package). The same input gives
// the same bytes. scripts/serve.mjs sends FILE.br to a request that names br (Chromium, Firefox and
// Safari do over https and on localhost), FILE.gz otherwise. Brotli's static dictionary and
// context modelling make the page's transfer about 13 % smaller than gzip -9 (docs/PERFORMANCE.md).
//
//   node scripts/brotli-web.mjs FILE...
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as Z } from 'node:zlib';

for (const f of process.argv.slice(2)) {
  const raw = readFileSync(f);
  const text = /\.(html|js|mjs|css|json|svg)$/.test(f);
  writeFileSync(`${f}.br`, brotliCompressSync(raw, {
    params: {
      [Z.BROTLI_PARAM_QUALITY]: Z.BROTLI_MAX_QUALITY,
      [Z.BROTLI_PARAM_LGWIN]: Z.BROTLI_MAX_WINDOW_BITS,
      [Z.BROTLI_PARAM_MODE]: text ? Z.BROTLI_MODE_TEXT : Z.BROTLI_MODE_GENERIC,
      [Z.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  }));
}

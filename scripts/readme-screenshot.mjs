// Makes docs/img/page.png, the README's picture of the page: build/web served on 127.0.0.1 and
// opened in headless Chromium at 1280×800 (tests/browser/harness.mjs), on the README's worked
// example (GQA decode on an H100 SXM). Run after `make web`:
//   node scripts/readme-screenshot.mjs [OUT.png]
import { serve, launch, openPage, ROOT } from '../tests/browser/harness.mjs';
import { join } from 'node:path';

const out = process.argv[2] || join(ROOT, 'docs/img/page.png');
const state = 'phase=decode&heads=32&kv-heads=8&kv-len=4096&head-dim=128&hw=h100-sxm';
const server = await serve();
const browser = await launch();
try {
  const page = await openPage(browser.context, `${server.url}#${state}`);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(500);
  await page.screenshot({ path: out });
  if (page.rlErrors.length) throw new Error(page.rlErrors.join('\n'));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}

// The phone (390×844; issue 20, item 8): the theme button says what it does and stays on screen,
// and the preset select is not cut: it spans its fieldset, the presets' names up to B300's
// ("NVIDIA B300 (Blackwell Ultra, HGX)") fit whole in it (the text's width in the select's font, its padding and
// arrow), and a longer one ends in an ellipsis. Screenshots, light and dark, in test-artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pageEnv, openPage, clearStored, ARTIFACTS } from './harness.mjs';

const env = pageEnv();
const PHONE = { width: 390, height: 844 };
const ARROW_PX = 24; // Chromium's drop-down arrow and its gap (about 20 px at this font size)

async function phonePage(colorScheme) {
  const page = await openPage(env.browser.context, env.server.url, { ...PHONE, colorScheme });
  await clearStored(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="1"]');
  return page;
}

const themeButton = (page) => page.$eval('[data-testid=action-theme]', (b) => {
  const r = b.getBoundingClientRect();
  return { text: b.textContent, label: b.getAttribute('aria-label'), left: r.left, right: r.right, top: r.top, bottom: r.bottom };
});

test('phone: the theme button names the theme it switches to', async () => {
  for (const [scheme, first, second] of [['light', 'dark', 'light'], ['dark', 'light', 'dark']]) {
    const page = await phonePage(scheme);
    let b = await themeButton(page);
    const cap = (s) => s[0].toUpperCase() + s.slice(1);
    assert.equal(b.text, `${cap(first)} theme`, `${scheme} OS scheme`);
    assert.equal(b.label, `Switch to the ${first} theme`);
    assert.ok(b.left >= 0 && b.right <= PHONE.width && b.top >= 0 && b.bottom <= PHONE.height, `${scheme}: on screen ${JSON.stringify(b)}`);
    await page.screenshot({ path: join(ARTIFACTS, `phone-start-${scheme}.png`) });
    await page.click('[data-testid=action-theme]');
    b = await themeButton(page);
    assert.equal(b.text, `${cap(second)} theme`);
    assert.equal(b.label, `Switch to the ${second} theme`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), first);
    assert.deepEqual(page.rlErrors, []);
    await page.close();
  }
});

test('phone: the preset select spans its fieldset and shows the preset names whole', async () => {
  const page = await phonePage('light');
  const geometry = () => page.$eval('#input-hw', (s) => {
    const r = s.getBoundingClientRect();
    const fs = s.closest('fieldset');
    const f = fs.getBoundingClientRect();
    const fcs = getComputedStyle(fs);
    const cs = getComputedStyle(s);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    return {
      left: r.left, right: r.right, width: r.width,
      inner: f.width - parseFloat(fcs.paddingLeft) - parseFloat(fcs.paddingRight) - parseFloat(fcs.borderLeftWidth) - parseFloat(fcs.borderRightWidth),
      textRoom: s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
      textWidth: ctx.measureText(s.selectedOptions[0].textContent).width,
      name: s.selectedOptions[0].textContent,
      overflow: cs.textOverflow,
      docWidth: document.documentElement.scrollWidth,
    };
  });
  await page.$eval('#input-hw', (s) => s.scrollIntoView());
  const names = await page.$$eval('#input-hw option', (os) => os.map((o) => [o.value, o.textContent]));
  const want = ['h100-sxm', 'rtx3060', 'b300']; // 171, 217 and 240 px of text at 390 px
  for (const id of want) {
    assert.ok(names.some(([v]) => v === id), `preset ${id} listed: ${names.map(([v]) => v).join(' ')}`);
    await page.selectOption('#input-hw', id);
    const g = await geometry();
    assert.ok(g.width >= g.inner - 1, `${g.name}: the select spans its fieldset (${g.width.toFixed(0)} of ${g.inner.toFixed(0)} px)`);
    assert.ok(g.left >= 0 && g.right <= PHONE.width, `${g.name}: on screen`);
    assert.ok(g.textWidth + ARROW_PX <= g.textRoom, `${g.name}: ${g.textWidth.toFixed(0)} px of text + ${ARROW_PX} px arrow in ${g.textRoom.toFixed(0)} px`);
    assert.equal(g.overflow, 'ellipsis');
    assert.ok(g.docWidth <= PHONE.width, `no sideways scroll (${g.docWidth} px)`);
  }
  await page.locator('fieldset:has(#input-hw)').screenshot({ path: join(ARTIFACTS, 'phone-start-preset.png') });
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

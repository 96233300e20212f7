// The reference docs page in a real browser: Debian's Chromium driven by playwright-core, with no
// network (every request to another host than the local docs server is blocked and recorded).
// Every operation and the webhook are rendered with their code samples, rules and result codes.
// Outside CI the test is skipped when Chromium is missing; in CI (CI=true) it fails.

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, resultCodes } from '../../src/index.js';
import { type StartedServer, startDocs } from '../../src/mock/launch.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const INSTALL =
  'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-dejavu-core';
const ARTIFACTS = new URL('../.artifacts/', import.meta.url);
const inCi = process.env.CI === 'true';
const available = existsSync(CHROMIUM);
if (!available && !inCi)
  console.warn(
    `test/docs/browser.process.test.ts: skipped, Chromium is not installed at ${CHROMIUM}. Install it with: ${INSTALL}`,
  );

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const TIMEOUT = 20_000;

// In CI a missing browser is a failure, not a skip.
it.runIf(!available && inCi)('has Chromium (CI=true requires it)', () => {
  throw new Error(`Chromium is not installed at ${CHROMIUM}. Install it with: ${INSTALL}`);
});

describe.skipIf(!available)('the reference docs in Chromium, offline', () => {
  let docs: StartedServer;
  let browser: Browser;
  let page: Page;
  const local: string[] = [];
  const elsewhere: string[] = [];

  beforeAll(async () => {
    docs = await startDocs({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, serviceWorkers: 'block' });
    // No network: only the local docs server answers; any other request is recorded and aborted.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${docs.url}/`)) {
        local.push(url);
        return route.continue();
      }
      elsewhere.push(url);
      return route.abort('blockedbyclient');
    });
    page = await context.newPage();
    await page.goto(`${docs.url}/`, { waitUntil: 'load' });
    await page.getByRole('heading', { name: `${doc.info.title} (${doc.info.version})` }).waitFor({ timeout: TIMEOUT });
  });

  afterAll(async () => {
    await browser?.close();
    await docs?.stop();
  });

  /** Opens an operation from the sidebar: its tag group, then its summary. */
  async function open(summary: string, tag: string) {
    const menu = page.locator('[data-component-name="Menu/Menu"]');
    const item = menu.getByText(summary, { exact: true });
    if (!(await item.isVisible())) await menu.getByText(tag, { exact: true }).click();
    await item.click();
    // The heading's text starts with the summary (a webhook's also holds its badge; the accessible
    // name holds the anchor's label too).
    const heading = page
      .locator('h1, h2')
      .filter({ hasText: new RegExp(`^${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
    await heading.waitFor({ timeout: TIMEOUT });
    await heading.scrollIntoViewIfNeeded();
    return heading;
  }

  /** Saves what the browser shows as test/.artifacts/docs-<name>.png (gitignored). */
  async function screenshot(name: string) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`docs-${name}.png`, ARTIFACTS).pathname });
  }

  /** The first-column values of every rendered result-code table. */
  async function codeTables() {
    return page
      .locator('table')
      .filter({ hasText: 'Message: meaning' })
      .evaluateAll((tables) =>
        tables.map((t) =>
          [...t.querySelectorAll('tbody tr')].map((row) => row.querySelector('td')?.textContent?.trim() ?? ''),
        ),
      );
  }

  const served = operations.filter((o) => o.kind === 'operation');

  for (const info of served) {
    it(`renders ${info.operationId} (${info.summary}) with its samples and result codes`, async () => {
      await open(info.summary, info.tags[0]);
      expect(decodeURIComponent(page.url()).toLowerCase()).toContain(info.operationId.toLowerCase());
      // The TypeScript sample (the first language) shows this operation's call of the typed client.
      const sample = page
        .locator('[data-component-name="CodeBlock/CodeBlock"]')
        .filter({ hasText: `await client.${info.operationId}({` });
      await sample.first().waitFor({ timeout: TIMEOUT });
      expect(await sample.first().textContent()).toContain("from 'gateway-contract'");
      // The result-code table: exactly the operation's codes, in the catalog's order.
      const codes = resultCodes[info.operationId].codes.map((c) => c.code);
      expect(await codeTables()).toContainEqual(codes);
      // The mock's named answers are listed.
      for (const name of info.response.examples)
        await page.getByText(name, { exact: true }).first().waitFor({ timeout: TIMEOUT });
      await screenshot(info.operationId);
    });
  }

  it('shows each variant of the pay body by its title', async () => {
    await open('Pay an order', 'Payments');
    const ref: string = doc.components.schemas.InitiatePaymentRequest.properties.body.$ref;
    const variants: { title: string }[] = doc.components.schemas[ref.slice(ref.lastIndexOf('/') + 1)].oneOf;
    expect(variants.length).toBeGreaterThan(5);
    for (const v of variants) await page.getByText(v.title, { exact: true }).first().waitFor({ timeout: TIMEOUT });
    await page
      .locator('h3')
      .filter({ hasText: /^Rules between fields$/ })
      .first()
      .waitFor({ timeout: TIMEOUT });
  });

  it('offers curl beside TypeScript for every operation', async () => {
    await open('Pay an order', 'Payments');
    await page
      .locator('[data-component-name="Dropdown/Dropdown"] button', { hasText: /^TypeScript$/ })
      .first()
      .click();
    const options = page.locator('[data-component-name="Dropdown/DropdownMenuItem"]');
    expect(await options.allInnerTexts()).toEqual(expect.arrayContaining(['TypeScript', 'curl', 'Payload']));
    await options
      .filter({ hasText: /^curl$/ })
      .first()
      .click();
    for (const info of served) {
      await open(info.summary, info.tags[0]);
      const curl = page
        .locator('[data-component-name="CodeBlock/CodeBlock"]')
        .filter({ hasText: `${info.path!.replace(/\{mid\}/, 'MERCHANT0001')}` })
        .filter({ hasText: 'curl -sS -X POST' });
      await curl.first().waitFor({ timeout: TIMEOUT });
      expect(await curl.first().textContent()).toContain('Prefer: example=');
    }
    await open('Pay an order', 'Payments');
    await screenshot('initiatePayment-curl');
  });

  it('renders the webhook with its receiving sample, curl sample and reply codes', async () => {
    const webhook = operations.find((o) => o.kind === 'webhook')!;
    await open(webhook.summary, webhook.tags[0]);
    await page.getByText('Webhook', { exact: true }).first().waitFor({ timeout: TIMEOUT });
    await page.getByText('createWebhookReceiver({').first().waitFor({ timeout: TIMEOUT });
    const curl = page.locator('pre, code').filter({ hasText: "curl -sS -X POST 'http://127.0.0.1:8080/'" });
    await curl.first().waitFor({ timeout: TIMEOUT });
    expect(await codeTables()).toContainEqual(resultCodes.notifyTokenStatus.codes.map((c) => c.code));
    await screenshot(webhook.operationId);
  });

  /**
   * What the reader sees of the layout on the page open now (a 1440 px window): the lines each code
   * of a table takes (result codes, actions, example names), each copy button that covers the text
   * of its block's first line, and each code block a line of which cannot be brought into view
   * with room after its last character (cut by the block or an ancestor, or not scrollable).
   */
  function layoutProblems() {
    return page.evaluate(() => {
      const problems: string[] = [];
      const wrapped = [...document.querySelectorAll('.md-table-wrapper td code')].filter(
        (code) => code.getClientRects().length > 1,
      );
      for (const code of wrapped)
        problems.push(`table code "${code.textContent}" takes ${code.getClientRects().length} lines`);
      /** The rectangles of the text of a block from its start to the end of its first line. */
      const firstLine = (pre: Element) => {
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        let started = false;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          if (!started && text.trim() === '') continue;
          if (!started) range.setStart(node, 0);
          started = true;
          const end = text.indexOf('\n');
          if (end >= 0) {
            range.setEnd(node, end);
            return [...range.getClientRects()];
          }
          range.setEnd(node, text.length);
        }
        return started ? [...range.getClientRects()] : [];
      };
      const overlaps = (a: DOMRect, b: DOMRect) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      for (const block of document.querySelectorAll('[data-component-name="CodeBlock/CodeBlock"]')) {
        const pre = block.querySelector('pre');
        const button = block.querySelector('[data-component-name="Buttons/CopyButton"]');
        if (!pre || !button || pre.getClientRects().length === 0) continue;
        const box = button.getBoundingClientRect();
        if (firstLine(pre).some((line) => line.width > 0 && overlaps(line, box)))
          problems.push(`the copy button covers the first line "${pre.textContent?.slice(0, 40)}"`);
      }
      for (const pre of document.querySelectorAll('pre')) {
        if (pre.getClientRects().length === 0) continue;
        const style = getComputedStyle(pre);
        const name = `"${pre.textContent?.trim().slice(0, 40)}"`;
        if (pre.scrollWidth > pre.clientWidth && !['auto', 'scroll'].includes(style.overflowX))
          problems.push(`code block ${name} cuts its lines`);
        pre.scrollLeft = pre.scrollWidth;
        // The text itself (a sample's lines may sit in block elements as wide as the block).
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        let textRight = Number.NEGATIVE_INFINITY;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if ((node.textContent ?? '').trim() === '') continue;
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) if (r.width > 0) textRight = Math.max(textRight, r.right);
        }
        const boxRight = pre.getBoundingClientRect().right - Number.parseFloat(style.borderRightWidth);
        if (textRight > boxRight - 8)
          problems.push(
            `code block ${name}: its longest line ends ${Math.round(boxRight - textRight)} px from the edge, scrolled to the end`,
          );
        pre.scrollLeft = 0;
        for (let up = pre.parentElement; up && up !== document.body; up = up.parentElement) {
          const clips = getComputedStyle(up).overflowX !== 'visible';
          if (clips && up.getBoundingClientRect().right < pre.getBoundingClientRect().right - 1)
            problems.push(`code block ${name} is cut by its container`);
        }
      }
      return problems;
    });
  }

  it('at 1440 px: no code in a table wraps, no copy button covers code, long code lines scroll into view', async () => {
    expect(page.viewportSize()?.width).toBe(1440);
    const problems: string[] = [];
    const seen = { tables: 0, blocks: 0 };
    for (const info of operations) {
      await open(info.summary, info.tags[0]);
      await page.locator('table').filter({ hasText: 'Message: meaning' }).first().waitFor({ timeout: TIMEOUT });
      seen.tables += await page.locator('.md-table-wrapper td code').count();
      seen.blocks += await page.locator('[data-component-name="CodeBlock/CodeBlock"] pre').count();
      for (const problem of await layoutProblems()) problems.push(`${info.operationId}: ${problem}`);
    }
    expect(seen.tables).toBeGreaterThan(200);
    expect(seen.blocks).toBeGreaterThan(operations.length);
    expect(problems).toEqual([]);
    await open('Pay an order', 'Payments');
    await screenshot('initiatePayment-1440');
  });

  it('serves an icon at /favicon.ico, never a 404', async () => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await fetch(`${docs.url}/favicon.ico`, { method });
      expect(answer.status, method).toBe(200);
      expect(answer.headers.get('content-type'), method).toMatch(/^image\//);
      if (method === 'GET') expect(await answer.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });

  it('reached no host but the local docs server', async () => {
    expect(local.length).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
  });
});

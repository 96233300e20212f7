// @ts-nocheck: the tools come from test/runtimes/node_modules, installed apart from the repository's.
//
// Loads a browser bundle in Debian's headless Chromium (driven by playwright-core) from a local
// server on 127.0.0.1 and reads the results the page leaves on globalThis.__checks. Every request
// to another address is refused, so the page cannot load anything the bundle does not carry.
// Usage: node tools/in-browser.mjs <dir with browser.mjs>. Prints the CHECKS line.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [dir] = process.argv.slice(2);
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
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>gateway-contract in a browser</title><script type="module" src="/browser.mjs"></script>';

if (!existsSync(CHROMIUM)) {
  console.error(
    `Chromium is not installed at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium fonts-dejavu-core`,
  );
  process.exit(1);
}

const server = createServer((request, response) => {
  if (request.url === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  if (request.url === '/browser.mjs')
    return response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(dir, 'browser.mjs')));
  response.writeHead(404).end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
const problems = [];
try {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await context.route('**/*', (route) =>
    route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  const results = await page
    .waitForFunction(() => globalThis.__checks, null, { timeout: 30_000 })
    .then((handle) => handle.jsonValue())
    .catch(() => null);
  if (!results) throw new Error(`the page left no results${problems.length ? `: ${problems.join('; ')}` : ''}`);
  console.log(`CHECKS ${JSON.stringify(results)}`);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}

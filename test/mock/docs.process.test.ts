// The docs server of the mock (startDocs) answers a deep link: a route of the page opened in a new
// tab (`/payments`, `/section/envelopes`) gets the page, and the files the page links relatively
// (`decisions.html`) are found from such a route too; any other name with a dot is a 404. Its
// process-level project: it loads the mock's launcher (test/README.md).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocs } from '../../src/mock/launch.js';

const page = readFileSync(new URL('../../generated/docs/index.html', import.meta.url), 'utf8');
const decisions = readFileSync(new URL('../../generated/docs/decisions.html', import.meta.url), 'utf8');
const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

let docs: Awaited<ReturnType<typeof startDocs>>;
beforeAll(async () => {
  docs = await startDocs({ host: '127.0.0.1', port: 0 });
});
afterAll(() => docs?.stop());

describe('the docs server', () => {
  it('serves the page for every route of the page, as for /', async () => {
    // The routes the page itself links (history routing, absolute paths).
    const routes = [...new Set([...page.matchAll(/href="(\/[a-z0-9/-]*)"/g)].map((m) => m[1] as string))];
    expect(routes).toEqual(expect.arrayContaining(['/payments', '/section/envelopes']));
    for (const route of [...routes, '/payments/', '/anything-without-a-dot']) {
      const answer = await fetch(`${docs.url}${route}`);
      expect(answer.status, route).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await answer.text()).toBe(page);
    }
    expect((await fetch(`${docs.url}/payments?x=1`)).status).toBe(200);
  });

  it('finds the files the page links relatively from any route, and answers 404 to any other file', async () => {
    const nested = await fetch(`${docs.url}/section/decisions.html`);
    expect(nested.status).toBe(200);
    expect(await nested.text()).toBe(decisions);
    expect(await (await fetch(`${docs.url}/section/openapi.json`)).json()).toEqual(contract);
    for (const missing of ['/payments.txt', '/section/index.js', '/x/../etc/passwd.conf', '/.env']) {
      expect((await fetch(`${docs.url}${missing}`)).status, missing).toBe(404);
    }
  });

  it('answers 405 to a method other than GET and HEAD on a route', async () => {
    expect((await fetch(`${docs.url}/payments`, { method: 'POST' })).status).toBe(405);
    const head = await fetch(`${docs.url}/payments`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});

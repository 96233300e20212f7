// The reference docs' derived parts: the page renders a copy of the bundled contract with code
// samples and sections added, never the bundle itself; every TypeScript sample type-checks against
// the package's own declarations (so a sample cannot drift from the client or the webhook API);
// each curl sample posts the operation's first request example; the page reaches no host; and every
// decision the page cites is a link to its record on the decisions page the docs server serves.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decisionNumbers } from '../../scripts/lib/decisionsPage.mjs';
import { DECISIONS_PAGE, docsDocument } from '../../scripts/lib/docs.mjs';
import { nextStepActions, operations, resultCodes } from '../../src/index.js';
import { startDocs } from '../../src/mock/launch.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = JSON.parse(readFileSync(join(root, 'generated/openapi.json'), 'utf8'));
const page = docsDocument(doc);
const html = readFileSync(join(root, 'generated/docs/index.html'), 'utf8');

type Sample = { lang: string; label: string; source: string };
/** The operation object of an operationId in a document. */
const opOf = (d: any, id: string) => {
  const info = operations.find((o) => o.operationId === id)!;
  return info.kind === 'webhook' ? d.webhooks[info.webhook!].post : d.paths[info.path!].post;
};
/** Fenced code blocks of a Markdown text, by language. */
const fences = (text: string, lang: string) =>
  [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``, 'g'))].map((m) => m[1]);

describe('the document the docs page renders', () => {
  it('leaves the bundled contract untouched', () => {
    expect(JSON.parse(readFileSync(join(root, 'generated/openapi.json'), 'utf8'))).toEqual(doc);
    for (const info of operations) expect(opOf(doc, info.operationId)['x-codeSamples']).toBeUndefined();
  });

  it('gives every operation a TypeScript and a curl sample, and the webhook both in its description', () => {
    for (const info of operations) {
      const op = opOf(page, info.operationId);
      if (info.kind === 'webhook') {
        expect(fences(op.description, 'typescript').join('')).toContain('createWebhookReceiver(');
        expect(fences(op.description, 'bash').join('')).toContain('curl -sS -X POST');
        continue;
      }
      const samples: Sample[] = op['x-codeSamples'];
      expect(samples.map((s) => s.label)).toEqual(['TypeScript', 'curl']);
      expect(samples[0].source).toContain(`await client.${info.operationId}({`);
      // curl posts the first request example, at the path, with its parameters.
      const first =
        doc.components.examples[
          op.requestBody.content['application/json'].examples[info.request.examples[0]].$ref.split('/').pop()
        ].value;
      const curl = samples[1].source;
      expect(JSON.parse(curl.slice(curl.indexOf("<<'JSON'\n") + 8, curl.lastIndexOf('\nJSON')))).toEqual(first);
      expect(curl).toContain(`http://127.0.0.1:4010${info.path!.replace('{mid}', 'MERCHANT0001')}`);
      expect(curl).toContain(`Prefer: example=${info.response.examples[0]}`);
    }
  });

  it('appends the result-code table of every operation and the webhook', () => {
    for (const info of operations) {
      const description: string = opOf(page, info.operationId).description;
      const rows = description
        .split('\n')
        .filter((l) => /^\| `[^`]+` \|/.test(l))
        .map((l) => l.slice(3, l.indexOf('`', 3)));
      // The code column of the table lists the catalog's codes in order (after any other table).
      const codes = resultCodes[info.operationId].codes.map((c) => c.code);
      const start = rows.indexOf(codes[0]);
      expect(rows.slice(start, start + codes.length), info.operationId).toEqual(codes);
      expect(description.startsWith(opOf(doc, info.operationId).description.trim()), info.operationId).toBe(true);
    }
  });

  it("shows each code's next step, and what each action used means", () => {
    for (const info of operations) {
      const description: string = opOf(page, info.operationId).description;
      const lines = description.split('\n');
      for (const c of resultCodes[info.operationId].codes) {
        const row = lines.find((l) => l.startsWith(`| \`${c.code}\` |`));
        const section = 'source' in c.nextStep ? ` (${c.nextStep.source.match(/^[\d.]+/)?.[0]})` : '';
        expect(row, `${info.operationId} ${c.code}`).toMatch(
          new RegExp(`\\| \`${c.nextStep.action}\`${section.replace(/[.()]/g, '\\$&')} \\|$`),
        );
        expect(lines, `${info.operationId} ${c.nextStep.action}`).toContain(
          `- \`${c.nextStep.action}\`: ${nextStepActions[c.nextStep.action]}`,
        );
      }
    }
  });

  it('restates the variants and conditions of a request with their titles', () => {
    const description: string = opOf(page, 'createSubscription').description;
    for (const title of [
      'Fixed amount (FIX)',
      'Variable amount (VARIABLE)',
      'On-demand subscriptions take no grace days',
      'Cards take at most 3 grace days',
    ])
      expect(description).toContain(`*${title}*`);
    expect(description).toContain(
      'when `subscriptionPaymentMode` is `BANK_MANDATE`: `subscriptionGraceDays` must not be sent',
    );
    expect(description).toContain('`expiryAfterStart`');
  });
});

describe('the generated page', () => {
  it('embeds the derived document, with telemetry off and no remote script, style or image', () => {
    expect(html).toContain('"disableTelemetry":true');
    expect(html).toContain('await client.initiatePayment({');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    expect(html).not.toContain('cdn.redoc.ly/redoc/logo');
  });
});

describe('the TypeScript samples', () => {
  it("type-check against the package's declarations", () => {
    const work = mkdtempSync(join(tmpdir(), 'gateway-contract-samples-'));
    try {
      const files: string[] = [];
      for (const info of operations) {
        const op = opOf(page, info.operationId);
        const sources =
          info.kind === 'webhook'
            ? fences(op.description, 'typescript')
            : (op['x-codeSamples'] as Sample[]).filter((s) => s.lang === 'TypeScript').map((s) => s.source);
        expect(sources.length, info.operationId).toBeGreaterThan(0);
        sources.forEach((source, i) => {
          const file = join(work, `${info.operationId}-${i}.ts`);
          writeFileSync(file, source);
          files.push(file);
        });
      }
      // ESM (top-level await), the package name mapped to its declarations as `exports` does.
      writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(
        join(work, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
            typeRoots: [join(root, 'node_modules/@types')],
            paths: { 'gateway-contract': [join(root, 'dist/index.d.ts')] },
          },
          files,
        }),
      );
      const run = spawnSync(
        process.execPath,
        [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(work, 'tsconfig.json')],
        { encoding: 'utf8' },
      );
      expect(run.stdout + run.stderr).toBe('');
      expect(run.status).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the decisions the docs page cites', () => {
  const records = {
    contract: readFileSync(join(root, 'openapi/DECISIONS.md'), 'utf8'),
    package: readFileSync(join(root, 'docs/decisions.md'), 'utf8'),
  };
  const known = new Set([...decisionNumbers(records.contract), ...decisionNumbers(records.package)]);
  const linked = docsDocument(doc, readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), known);
  const decisionsHtml = readFileSync(join(root, `generated/docs/${DECISIONS_PAGE}`), 'utf8');
  /** Every description of a document, with where it is. */
  const descriptions = (node: unknown, at = ''): [string, string][] =>
    Array.isArray(node)
      ? node.flatMap((item, i) => descriptions(item, `${at}/${i}`))
      : node && typeof node === 'object'
        ? Object.entries(node).flatMap(([key, value]) =>
            key === 'description' && typeof value === 'string'
              ? [[at, value] as [string, string]]
              : descriptions(value, `${at}/${key}`),
          )
        : [];
  /** The numbers a text links to the decisions page. */
  const cited = (text: string) => [...text.matchAll(/\]\(decisions\.html#(D-\d{2,})\)/g)].map((m) => m[1] ?? '');
  /** The anchors of the decisions page. */
  const idsOf = (page: string) => new Set([...page.matchAll(/ id="(D-\d{2,})"/g)].map((m) => m[1]));

  it('are each a link to its record on the decisions page, and none is left bare', () => {
    const bare: string[] = [];
    const numbers = new Set<string>();
    for (const [at, text] of descriptions(linked)) {
      for (const n of cited(text)) numbers.add(n);
      const rest = text.replace(/\[(D-\d{2,})\]\(decisions\.html#\1\)/g, '');
      for (const [n] of rest.matchAll(/\bD-\d{2,}\b/g)) bare.push(`${at}: ${n}`);
    }
    expect(bare).toEqual([]);
    // The contract's descriptions cite the decisions D-01 to D-20, the version rules and the next steps.
    expect(numbers.size).toBeGreaterThanOrEqual(20);
    for (const n of numbers) expect(known, n).toContain(n);
  });

  it('are linked in the generated page, and the generated decisions page has a record for each, and for every decision', () => {
    const inPage = new Set(cited(html));
    expect(inPage).toEqual(new Set(descriptions(linked).flatMap(([, text]) => cited(text))));
    const ids = idsOf(decisionsHtml);
    expect(ids).toEqual(known);
    // Every record of both files, whatever its number's digits, has its anchor (the page read two digits only).
    const headings = [...`${records.contract}\n${records.package}`.matchAll(/^## (D-[0-9]+) /gm)].map((m) => m[1]);
    expect([...ids].sort()).toEqual([...new Set(headings)].sort());
    // A page of its own that reaches no host: no script, stylesheet, image or link elsewhere.
    expect(decisionsHtml).not.toMatch(/<script|<link|<img| src=|href="(?!#|index\.html")/);
  });

  it('resolve on the docs server: /decisions.html is served beside the page, with every record the page links', async () => {
    const docs = await startDocs({ host: '127.0.0.1', port: 0 });
    try {
      const page = await fetch(`${docs.url}/`);
      const served = await page.text();
      const links = new Set(cited(served));
      expect(links.size).toBeGreaterThanOrEqual(20);
      const target = await fetch(`${docs.url}/${DECISIONS_PAGE}`);
      expect(target.status).toBe(200);
      expect(target.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const body = await target.text();
      expect(body).toBe(decisionsHtml);
      const ids = idsOf(body);
      for (const n of links) expect(ids, n).toContain(n);
      expect((await fetch(`${docs.url}/${DECISIONS_PAGE}`, { method: 'POST' })).status).toBe(405);
    } finally {
      await docs.stop();
    }
  });
});

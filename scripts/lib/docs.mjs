// The reference docs: one self-contained HTML page (Redoc inlined) that renders with no network.
// The page renders a copy of the bundled contract with derived additions: per operation the typed
// client and curl samples (`x-codeSamples`), the rules between fields, the result-code table with
// each code's next step and the mock's named answers, appended to the description; and the changes of the contract's version
// from CHANGELOG.md, appended to the info description; every decision it cites (D-05) made a link
// to its record on the decisions page beside it (decisions.html, from openapi/DECISIONS.md and
// docs/decisions.md). generated/openapi.* stay as they are.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractChangesOf } from './changelog.mjs';
import { decisionLinks, decisionNumbers, decisionsPage } from './decisionsPage.mjs';
import { operationSamples, webhookSamples } from './docsSamples.mjs';
import { mockAnswersSection, resultCodeSection, rulesSection, samplesSection } from './docsSections.mjs';
import { operationsOf } from './operationIndex.mjs';
import { nextStepActionsOf, resultCatalogOf } from './resultCatalog.mjs';

export const DOCS_TITLE = 'Merchant payments gateway: reference';

/**
 * Redoc options: examples expanded, so the whole envelope shows; the code sample languages are
 * ours (Redoc lists only the languages named here, the first one selected), then the payload.
 */
const REDOC_OPTIONS = {
  jsonSamplesExpandLevel: 'all',
  codeSamples: { languages: [{ lang: 'TypeScript' }, { lang: 'curl' }, { lang: 'Payload' }] },
};
/**
 * build-docs turns the page's telemetry (posts to Redocly's collector) on unless the CLI's own is
 * off; off for both, so neither the build nor the page reaches the network.
 */
const REDOC_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off' };

/**
 * Redoc's sidebar footer loads Redocly's logo from its CDN. The page must not reach any host, so
 * the image is inlined (a small SVG of the same words).
 */
const REMOTE_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="52" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#555">Redocly</text></svg>')}`;

/**
 * The page's own layout rules, placed last in its head: each selector more specific than Redoc's
 * single-class rules (which its script may insert later), and `!important` where Redoc's doubled
 * class (`.a.a`) sets the code block's padding through variables set at several levels:
 * - short code in the tables (result codes, statuses, next-step actions, example names) never
 *   breaks inside a word, and a table wider than the middle panel scrolls instead of squeezing it;
 * - a code block's copy button has a row of its own above the code, so it covers no line;
 * - a long code line scrolls sideways, with room after its last character and a scroll bar one
 *   can see and grab.
 */
const LAYOUT_CSS = `
.md-table-wrapper[class] { overflow-x: auto; }
.md-table-wrapper td code, .md-table-wrapper th code { white-space: nowrap; overflow-wrap: normal; word-break: normal; }
div.code-block-header[data-component-name="CodeBlock/CodeBlockControls"] { position: static; display: flex; justify-content: flex-end; }
pre { overflow-x: auto !important; padding-right: 20px !important; }
:root pre::-webkit-scrollbar { height: 10px; }
`;

/** The page with its layout rules, before the first `</head>` (Redoc's script holds that text too, later). @param {string} html */
function withLayout(html) {
  const at = html.indexOf('</head>');
  if (at < 0) throw new Error('build-docs: the page has no </head>');
  return `${html.slice(0, at)}<style id="gateway-contract-layout">${LAYOUT_CSS}</style>\n${html.slice(at)}`;
}

/**
 * The "Changes in <version>" section of the page: the changes of the contract's own version, from
 * the CHANGELOG.md section that released it, or nothing when no section carries it (not released yet).
 * @param {any} doc @param {string | null | undefined} changelog the content of CHANGELOG.md
 */
export function changesSection(doc, changelog) {
  const version = String(doc.info?.version);
  const section = changelog ? contractChangesOf(changelog, version) : null;
  if (!section) return '';
  // The section's own headings sit one level below the page's "Changes in" heading.
  const body = section.body.replace(/^### /gm, '#### ');
  return [
    `## Changes in ${version}`,
    `${section.date ? `Released ${section.date}` : 'Not released yet'}; every version's changes are in \`CHANGELOG.md\` of the package. Breaking changes come with a new major version, notable ones with a new minor version (\`openapi/DECISIONS.md\`, D-44 to D-47).`,
    body,
  ].join('\n\n');
}

/** Where the docs page links a decision: the decisions page, served beside it. */
export const DECISIONS_PAGE = 'decisions.html';

/**
 * Every `description` of a document with its citations of known decisions made links to the
 * decisions page (in place).
 * @param {any} node @param {Set<string>} known
 */
function linkDecisions(node, known) {
  if (Array.isArray(node)) for (const item of node) linkDecisions(item, known);
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') node[key] = decisionLinks(value, known, DECISIONS_PAGE);
      else if (key !== 'example' && key !== 'examples' && key !== 'value') linkDecisions(value, known);
    }
}

/**
 * The document the docs page renders: the bundle plus the derived samples and sections, and the
 * changes of the contract's version; with `decisions`, each decision cited linked to its record.
 * @param {any} doc the bundled contract (not modified)
 * @param {string | null} [changelog] the content of CHANGELOG.md
 * @param {Set<string>} [decisions] the numbers of the decisions recorded (both records)
 */
export function docsDocument(doc, changelog, decisions) {
  const page = structuredClone(doc);
  const changes = changesSection(doc, changelog);
  if (changes) page.info.description = `${String(page.info.description ?? '').trimEnd()}\n\n${changes}\n`;
  const catalog = resultCatalogOf(doc);
  const actions = nextStepActionsOf(doc);
  for (const info of operationsOf(doc)) {
    const item =
      info.kind === 'webhook'
        ? page.webhooks[/** @type {string} */ (info.webhook)]
        : page.paths[/** @type {string} */ (info.path)];
    const op = item.post;
    if (info.kind === 'webhook') {
      // Redoc shows only the payload beside a webhook, never its x-codeSamples: the samples go
      // into the description instead.
      const sections = [
        samplesSection('Receive it', webhookSamples(doc, info, op)),
        resultCodeSection(catalog[info.operationId], 'webhook', actions),
      ];
      op.description = [op.description?.trim() ?? '', ...sections].join('\n\n');
    } else {
      const sections = [
        rulesSection(doc, op),
        resultCodeSection(catalog[info.operationId], 'operation', actions),
        mockAnswersSection(doc, op),
      ];
      op.description = [op.description?.trim() ?? '', ...sections.filter(Boolean)].join('\n\n');
      op['x-codeSamples'] = operationSamples(doc, info, catalog[info.operationId], item, op);
    }
  }
  if (decisions) linkDecisions(page, decisions);
  return page;
}

/**
 * The two records of decisions: the contract's and the package's.
 * @param {string} root @returns {Promise<{ contract: string, package: string }>}
 */
export async function decisionRecords(root) {
  const [contract, pkg] = await Promise.all([
    readFile(join(root, 'openapi/DECISIONS.md'), 'utf8'),
    readFile(join(root, 'docs/decisions.md'), 'utf8'),
  ]);
  return { contract, package: pkg };
}

/** @param {any} doc @param {string} root */
export async function buildDocs(doc, root) {
  const work = await mkdtemp(join(tmpdir(), 'gateway-contract-docs-'));
  try {
    const input = join(work, 'openapi.json');
    const output = join(work, 'index.html');
    const changelog = await readFile(join(root, 'CHANGELOG.md'), 'utf8').catch(() => null);
    const records = await decisionRecords(root);
    const decisions = new Set([...decisionNumbers(records.contract), ...decisionNumbers(records.package)]);
    await writeFile(input, JSON.stringify(docsDocument(doc, changelog, decisions)));
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/@redocly/cli/bin/cli.js'),
        'build-docs',
        input,
        '--output',
        output,
        '--inlineBundle',
        '--title',
        DOCS_TITLE,
        '--openapi',
        JSON.stringify(REDOC_OPTIONS),
      ],
      { cwd: work, encoding: 'utf8', env: REDOC_ENV },
    );
    if (run.status !== 0) throw new Error(`build-docs failed: ${run.stderr || run.stdout}`);
    const html = withLayout((await readFile(output, 'utf8')).replace(REMOTE_LOGO, INLINE_LOGO));
    if (!html.includes('"disableTelemetry":true'))
      throw new Error('build-docs: the page would send telemetry (disableTelemetry was not applied)');
    return {
      'docs/index.html': html,
      [`docs/${DECISIONS_PAGE}`]: decisionsPage(records, { title: DOCS_TITLE, version: String(doc.info?.version) }),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

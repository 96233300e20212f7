// The decisions page of the reference docs (generated/docs/decisions.html, served by the docs
// server at /decisions.html): both records of decisions, the contract's (openapi/DECISIONS.md) and
// the package's (docs/decisions.md), rendered into one self-contained page where every record is
// an anchor named after its number (`#D-05`). The docs page links each D-number it cites there
// (`decisionLinks`), so a reader of the page can open every decision the page names.
import { Marked } from 'marked';

/** A record's heading: `## D-05 Timestamps`. */
const RECORD = /^## (D-\d{2,}) /gm;
/** A citation of a decision in prose. */
const CITATION = /\bD-\d{2,}\b/g;

/** @param {string} text */
const escapeHtml = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The numbers of the records a decisions file holds, in order. @param {string} markdown @returns {string[]} */
export function decisionNumbers(markdown) {
  return [...markdown.matchAll(RECORD)].map((m) => /** @type {string} */ (m[1]));
}

/** The records of a decisions file, without the file's introduction. @param {string} markdown */
function recordsOf(markdown) {
  const first = markdown.search(RECORD);
  if (first < 0) throw new Error('decisions: a file of decisions holds no record (## D-nn Title)');
  return markdown.slice(first);
}

/**
 * A Markdown text with every citation of a known decision outside code spans and links made a link
 * to its record: `[D-05](<base>#D-05)`. A number that is no record is left as it is (a test fails
 * on it).
 * @param {string} markdown @param {Set<string>} known @param {string} base the page of the records
 */
export function decisionLinks(markdown, known, base) {
  // Code spans and links (`[text](target)`) keep their text; the prose between them is linked.
  return markdown
    .split(/(`[^`]*`|\[[^\]]*\]\([^)]*\))/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(CITATION, (n) => (known.has(n) ? `[${n}](${base}#${n})` : n))))
    .join('');
}

const STYLE = `
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
main { max-width: 56rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
h1 { font-size: 1.8rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; padding-bottom: .3rem; }
h3 { margin-top: 2rem; font-size: 1.15rem; } h3 a.self { color: inherit; text-decoration: none; }
:target { background: #fff8c5; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa; padding: .1em .3em; border-radius: 4px; overflow-wrap: anywhere; }
table { border-collapse: collapse; display: block; overflow-x: auto; } th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: left; }
nav ul { columns: 2 22rem; list-style: none; padding-left: 0; } nav li { break-inside: avoid; }
a { color: #0969da; }
`;

/**
 * The page, from the two files of decisions.
 * @param {{ contract: string, package: string }} records the contents of openapi/DECISIONS.md and docs/decisions.md
 * @param {{ title: string, version: string }} about the docs page's title and the contract's version
 * @returns {string}
 */
export function decisionsPage(records, about) {
  const parts = [
    { id: 'contract', title: 'Decisions of the contract', source: 'openapi/DECISIONS.md', markdown: records.contract },
    { id: 'package', title: 'Decisions of the package', source: 'docs/decisions.md', markdown: records.package },
  ];
  /** @type {Map<string, { title: string, part: string }>} */
  const index = new Map();
  for (const part of parts)
    for (const m of part.markdown.matchAll(/^## (D-\d{2,}) (.*)$/gm)) {
      const number = /** @type {string} */ (m[1]);
      if (index.has(number)) throw new Error(`decisions: ${number} is recorded twice`);
      index.set(number, { title: /** @type {string} */ (m[2]), part: part.id });
    }
  const known = new Set(index.keys());
  const marked = new Marked({ async: false, gfm: true });
  marked.use({
    renderer: {
      heading(text, level, raw) {
        const number = /^D-\d{2,}\b/.exec(raw)?.[0];
        // The heading's own number is not a link inside the link to itself.
        const own = text.replace(/<a href="#(D-\d{2,})">\1<\/a>/g, '$1');
        return number ? `<h${level} id="${number}"><a class="self" href="#${number}">${own}</a></h${level}>\n` : false;
      },
      // The records are Markdown without HTML: any tag-like text is shown as text.
      html(html) {
        return escapeHtml(html);
      },
    },
  });
  const render = (/** @type {string} */ markdown) => /** @type {string} */ (marked.parse(markdown));
  const sorted = [...index.entries()].sort(([a], [b]) => a.localeCompare(b));
  const nav = sorted
    .map(([n, { title }]) => `<li><a href="#${n}">${n}</a> ${render(title).replace(/^<p>|<\/p>\n?$/g, '')}</li>`)
    .join('\n');
  const sections = parts.map(
    (part) =>
      `<section id="${part.id}">\n<h2>${part.title}</h2>\n<p>From <code>${part.source}</code> of the package's repository.</p>\n${render(
        decisionLinks(recordsOf(part.markdown).replace(/^## /gm, '### '), known, ''),
      )}</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(about.title)}: decisions</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Decisions</h1>
<p>Every open point, contradiction and quirk of the interface description, and every choice the package makes where the description is silent, decided once with the reason and where it is enforced. The <a href="index.html">reference docs</a> (contract ${escapeHtml(about.version)}) cite them by number. The contract's decisions and the package's share one sequence of numbers; a number is never reused.</p>
<nav aria-label="Decisions by number">
<ul>
${nav}
</ul>
</nav>
${sections.join('\n')}
</main>
</body>
</html>
`;
}

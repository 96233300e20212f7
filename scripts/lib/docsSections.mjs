// Sections appended to each operation's description in the reference docs, derived from the
// bundled contract so they cannot drift from it: the rules between fields (oneOf variants,
// if/then conditions, named checks), the result-code table, and the mock's named answers.

import { examplesOf } from './docsSamples.mjs';
import { namedCheckRules } from './namedChecks.mjs';
import { deref } from './refs.mjs';

/** Text for a Markdown table cell. @param {string} text */
function cell(text) {
  return String(text)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
}

/** `a`, `b` and `c` (or `a`, `b` or `c`) @param {unknown[]} names */
function codeList(names, and = 'and') {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} ${and} ${quoted.at(-1)}`;
}

/**
 * Every schema with variants (`oneOf` whose branches pin a tag with `const`) or titled `if`/`then`
 * rules reachable from `schema`, each once, with the places (dotted paths) where it applies.
 * @param {any} doc @param {any} schema
 */
export function conditionalSchemas(doc, schema) {
  /** @type {Map<any, { schema: any, paths: string[] }>} */
  const found = new Map();
  const visit = (/** @type {any} */ node, /** @type {string} */ path, /** @type {Set<any>} */ stack) => {
    const s = deref(doc, node);
    if (!s || typeof s !== 'object' || stack.has(s)) return;
    const next = new Set(stack).add(s);
    const hasRules = tagOf(s) !== null || s.if || (s.allOf ?? []).some((/** @type {any} */ part) => part.if);
    if (hasRules) {
      const entry = found.get(s) ?? { schema: s, paths: [] };
      if (!entry.paths.includes(path)) entry.paths.push(path);
      found.set(s, entry);
    }
    for (const [name, sub] of Object.entries(s.properties ?? {})) visit(sub, path ? `${path}.${name}` : name, next);
    if (s.items) visit(s.items, `${path}[]`, next);
    // Titled if/then items of allOf belong to the schema that holds them (listed with it above).
    for (const part of [
      ...(s.allOf ?? []).filter((/** @type {any} */ p) => !p.if),
      ...(s.oneOf ?? []),
      ...(s.anyOf ?? []),
    ])
      visit(part, path, next);
  };
  visit(schema, '', new Set());
  return [...found.values()];
}

/** The tag property that every branch of a `oneOf` pins with `const`, or null. @param {any} schema */
function tagOf(schema) {
  const branches = schema?.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const [first] = branches;
  for (const name of Object.keys(first.properties ?? {})) {
    if (
      branches.every(
        (/** @type {any} */ b) => b.properties?.[name]?.const !== undefined && (b.required ?? []).includes(name),
      )
    )
      return name;
  }
  return null;
}

/** "`x` is `A`", "`x` is one of `A`, `B`", "`x` is absent", from an `if`. @param {any} condition */
function describeCondition(condition) {
  const parts = [];
  for (const [name, sub] of Object.entries(condition?.properties ?? {})) {
    const s = /** @type {any} */ (sub);
    if (s?.const !== undefined) parts.push(`\`${name}\` is \`${s.const}\``);
    else if (Array.isArray(s?.enum)) parts.push(`\`${name}\` is ${codeList(s.enum, 'or')}`);
  }
  for (const name of condition?.not?.required ?? []) parts.push(`\`${name}\` is absent`);
  return parts.join(' and ');
}

/** What a `then` requires, forbids or restricts. @param {any} consequence @param {string[]} given */
function describeConsequence(consequence, given) {
  const parts = [];
  const required = (consequence?.required ?? []).filter((/** @type {string} */ n) => !given.includes(n));
  if (required.length) parts.push(`${codeList(required)} ${required.length > 1 ? 'are' : 'is'} required`);
  for (const [name, sub] of Object.entries(consequence?.properties ?? {})) {
    const s = /** @type {any} */ (sub);
    if (s === false) parts.push(`\`${name}\` must not be sent`);
    else if (s?.const !== undefined) parts.push(`\`${name}\` must be \`${s.const}\``);
    else if (s?.pattern) parts.push(`\`${name}\` must match \`${s.pattern}\``);
  }
  return parts.join('; ');
}

/** Markdown lines for one schema's variants and conditions. @param {{ schema: any, paths: string[] }} entry */
function rulesOf({ schema, paths }) {
  const where = paths.map((p) => `\`${p || '(envelope)'}\``).join(', ');
  const name = schema.title ? `${schema.title} (${where})` : where;
  const lines = [];
  const tag = tagOf(schema);
  if (tag) {
    lines.push(`- **${name}**: one variant, chosen by \`${tag}\`:`);
    for (const branch of schema.oneOf) {
      const extra = (branch.required ?? []).filter((/** @type {string} */ n) => n !== tag);
      const description = branch.description?.trim().replace(/\.?$/, '.') ?? '';
      // The branch's own words, when they name every field it requires; else the list first.
      const requires = extra.length ? `Requires ${codeList(extra)}.` : 'Nothing more is required.';
      const what =
        description && extra.every((/** @type {string} */ n) => description.includes(`\`${n}\``))
          ? description
          : [requires, description].filter(Boolean).join(' ');
      lines.push(`  - *${branch.title ?? branch.properties[tag].const}*: ${cell(what)}`);
    }
  }
  const conditions = [
    ...(schema.if ? [{ title: schema.then?.title ?? schema.if.title, if: schema.if, then: schema.then }] : []),
    ...(schema.allOf ?? []).filter((/** @type {any} */ p) => p.if),
  ];
  if (conditions.length) {
    lines.push(`- **${name}**: conditions:`);
    for (const rule of conditions) {
      const given = Object.keys(rule.if.properties ?? {});
      const when = describeCondition(rule.if);
      const then = describeConsequence(rule.then, given);
      lines.push(`  - *${rule.title ?? 'Rule'}*: ${cell(when ? `when ${when}: ${then}` : then)}.`);
    }
  }
  return lines;
}

/**
 * "Rules between fields": the request's variants and conditions, and the named checks of the
 * operation (rules JSON Schema cannot say).
 * @param {any} doc @param {any} op
 */
export function rulesSection(doc, op) {
  const schema = op.requestBody.content['application/json'].schema;
  const entries = conditionalSchemas(doc, schema);
  const rules = namedCheckRules();
  const checks = (op['x-named-checks'] ?? []).filter((/** @type {string} */ n) => n in rules);
  if (entries.length === 0 && checks.length === 0) return '';
  const lines = ['### Rules between fields', ''];
  if (entries.length) {
    lines.push(
      'Enforced by the schema, so by `validate()`, the typed client with `validate: true`, and the mock (HTTP 422):',
      '',
    );
    for (const entry of entries) lines.push(...rulesOf(entry));
    lines.push('');
  }
  if (checks.length) {
    lines.push(
      'Named checks, run by `validate()` and the typed client with `validate: true` (the mock does not run them):',
      '',
    );
    for (const name of checks) lines.push(`- \`${name}\`: ${cell(rules[name].rule)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * The result-code table of one operation (or the reply codes of the webhook), with each code's next
 * step, and below it what each action used there means.
 * @param {any} entry the operation's entry of the result-code catalog @param {'operation' | 'webhook'} kind
 * @param {Record<string, string>} actions the next-step actions of the contract (`x-next-step-actions`)
 */
export function resultCodeSection(entry, kind, actions) {
  const field = (/** @type {string} */ name) => `\`${entry.location.slice(1).replace(/\//g, '.')}.${name}\``;
  const lines =
    kind === 'webhook'
      ? [
          '### Reply codes',
          '',
          `Your reply carries one of these codes in ${field(entry.fields.code)} with its status in ${field(entry.fields.status)} and a message in ${field(entry.fields.message)}; \`00\` accepts the notification.`,
          '',
        ]
      : [
          '### Result codes',
          '',
          `Every outcome, success or failure, is HTTP 200 with the code in ${field(entry.fields.code)}, its status in ${field(entry.fields.status)} and the message in ${field(entry.fields.message)}.`,
          '',
        ];
  // Four short columns: the middle panel is narrow, and the meaning reads best right after the
  // message. The next step names the description's section where it says so.
  lines.push('| Code | Status | Message: meaning | Next step |', '|---|---|---|---|');
  for (const c of entry.codes) {
    const section = c.nextStep.source ? ` (${c.nextStep.source.match(/^[\d.]+/)?.[0]})` : '';
    lines.push(
      `| \`${c.code}\` | ${c.status} | ${cell(c.messages.map((/** @type {string} */ m) => `"${m}"`).join(' or '))}: ${cell(c.meaning)} | \`${c.nextStep.action}\`${section} |`,
    );
  }
  const used = new Set(entry.codes.map((/** @type {any} */ c) => c.nextStep.action));
  const decisions = [...new Set(entry.codes.map((/** @type {any} */ c) => c.nextStep.decision).filter(Boolean))].join(
    ', ',
  );
  const basis = `a section number: the description says so${decisions ? `; otherwise \`openapi/DECISIONS.md\`, ${decisions}` : ''}`;
  lines.push(
    '',
    kind === 'webhook' ? `Next steps, for the sender of the notification (${basis}):` : `Next steps (${basis}):`,
    '',
  );
  for (const [action, meaning] of Object.entries(actions))
    if (used.has(action)) lines.push(`- \`${action}\`: ${cell(meaning)}`);
  lines.push('');
  return lines.join('\n');
}

/**
 * The named answers of the mock for one operation (`Prefer: example=<name>`).
 * @param {any} doc @param {any} op
 */
export function mockAnswersSection(doc, op) {
  const answers = examplesOf(doc, op.responses['200'].content['application/json']);
  const lines = [
    '### Answers of the mock',
    '',
    'The mock (`npm start` in this package, `npx gateway-contract mock` where it is installed) serves this operation on `http://127.0.0.1:4010`. Without a `Prefer` header it answers with the first of these; pick another with `Prefer: example=<name>`:',
    '',
    '| `Prefer: example=` | Answer |',
    '|---|---|',
  ];
  for (const a of answers)
    lines.push(`| \`${a.name}\` | ${cell([a.summary, a.description].filter(Boolean).join(': '))} |`);
  lines.push('');
  return lines.join('\n');
}

/** Markdown code-fence languages of the samples' `lang`. */
const FENCE = /** @type {Record<string, string>} */ ({ TypeScript: 'typescript', Shell: 'bash' });

/**
 * Code samples as Markdown, for where Redoc shows no `x-codeSamples` (webhooks).
 * @param {string} heading @param {{ lang: string, label: string, source: string, title?: string }[]} samples
 */
export function samplesSection(heading, samples) {
  const lines = [`### ${heading}`, ''];
  for (const sample of samples)
    lines.push(
      `**${sample.title ?? sample.label}**`,
      '',
      `\`\`\`${FENCE[sample.lang] ?? ''}`,
      sample.source.trimEnd(),
      '```',
      '',
    );
  return lines.join('\n');
}

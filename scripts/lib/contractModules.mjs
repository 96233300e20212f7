// The parts of the bundled contract the package reads at run time, as ES modules it imports (no
// file read, no JSON import: they load as they are in Node, edge runtimes and browsers, and
// bundlers follow them). `contract.js`: what words a validation problem (src/validation/errors.ts
// and schemaLocation.ts), the component schemas and parameters with the structure of the bundle,
// so that every JSON Pointer `#/components/schemas/...` or `#/components/parameters/...` of an
// issue resolves in it as in openapi.json. `examples.js`: the contract's named examples.
import { SCHEMA_MAPS, SUBSCHEMAS } from './schemaKeywords.mjs';

/** Keywords nothing at run time reads: left out of contract.js. */
const LEFT_OUT = new Set([
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
]);

/**
 * The keywords whose problem is worded with the description of the schema that holds them
 * ("Expected: ..." after a wrong format or a key that is not allowed: errors.ts, expectation).
 * Only the schemas holding one keep a description.
 */
const DESCRIBED = ['pattern', 'propertyNames'];

/**
 * The first line of a description, trimmed: all that the wording of a problem reads of it. None
 * when it is empty. @param {unknown} description @returns {string | undefined}
 */
function firstLine(description) {
  if (typeof description !== 'string') return undefined;
  const line = (description.split('\n')[0] ?? '').trim();
  return line === '' ? undefined : line;
}

/**
 * A schema as the wording of problems reads it: every keyword that constrains (the rule an issue
 * points at must be found where it is), `$ref`, `title`, and the first line of `description` where
 * a problem quotes it (DESCRIBED); without other descriptions, examples, defaults, other
 * annotations and vendor extensions.
 * @param {any} schema @returns {any}
 */
function wordingOf(schema) {
  if (Array.isArray(schema)) return schema.map(wordingOf);
  if (!schema || typeof schema !== 'object') return schema;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (LEFT_OUT.has(key) || key.startsWith('x-')) continue;
    if (key === 'description') {
      const line = DESCRIBED.some((k) => k in schema) ? firstLine(value) : undefined;
      if (line !== undefined) out[key] = line;
    } else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, wordingOf(sub)]));
    else if (SUBSCHEMAS.has(key)) out[key] = wordingOf(value);
    else out[key] = value;
  }
  return out;
}

/** A parameter with its schema as wordingOf leaves it, without its description and examples. @param {any} parameter */
function parameterOf(parameter) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(parameter)) {
    if (key === 'schema') out[key] = wordingOf(value);
    else if (key !== 'description' && !LEFT_OUT.has(key) && !key.startsWith('x-')) out[key] = value;
  }
  return out;
}

/**
 * The value as the text of a JavaScript expression: JSON, which is one, but for a key
 * `__proto__`, which an object literal takes for the object's prototype (refused). The first
 * `levels` levels of objects are written one member a line (a change of the contract shows as the
 * lines of the schemas or examples it changes), anything deeper on that line.
 * @param {unknown} value @param {number} levels @param {string} [indent]
 * @returns {string}
 */
function literal(value, levels, indent = '') {
  if (indent === '') refuseProtoKeys(value);
  if (levels === 0 || !value || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const inner = `${indent}  `;
  const members = Object.entries(value).map(
    ([key, child]) => `${inner}${JSON.stringify(key)}: ${literal(child, levels - 1, inner)}`,
  );
  return members.length === 0 ? '{}' : `{\n${members.join(',\n')}\n${indent}}`;
}

/** @param {unknown} value */
function refuseProtoKeys(value) {
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '__proto__')
      throw new Error('the contract has a key "__proto__", which a module cannot write as a literal');
    refuseProtoKeys(child);
  }
}

/**
 * The wording data restricted to what one side of an operation reaches: the schemas its payload's
 * schema and its parameters refer to, through every `$ref`, and those parameters. An issue's
 * `schemaPath` resolves in it as in the whole contract.
 * @param {any} wording contractWording() of the bundle @param {string[]} schemas @param {string[]} parameters
 */
export function reachableWording(wording, schemas, parameters) {
  const { components } = wording;
  /** @type {Set<string>} */
  const names = new Set();
  /** @param {unknown} node */
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const name =
        key === '$ref' && typeof value === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1] : undefined;
      if (name !== undefined) {
        if (!names.has(name)) {
          names.add(name);
          visit(components.schemas[name]);
        }
      } else visit(value);
    }
  };
  for (const name of schemas) visit({ $ref: `#/components/schemas/${name}` });
  for (const name of parameters) visit(components.parameters[name]);
  const chosen = (/** @type {Record<string, unknown>} */ all, /** @type {Set<string>} */ keep) =>
    Object.fromEntries(Object.entries(all).filter(([name]) => keep.has(name)));
  return {
    components: {
      schemas: chosen(components.schemas, names),
      parameters: chosen(components.parameters, new Set(parameters)),
    },
  };
}

/**
 * The lines of a module part that holds wording data as JSON text, one schema a line, and the
 * function `name` that parses it the first time a problem is worded. As an object literal it took
 * a third of the start of a program that imports one operation's validation and validates a
 * payload (bench/startup.mjs), for data that only an invalid payload reads.
 * @param {unknown} wording @param {string} name @param {string} about the function's doc comment
 * @returns {string[]}
 */
export function lazyWordingCode(wording, name, about) {
  return [
    '/** The text of the wording data, one schema a line. */',
    'const TEXT = [',
    ...literal(wording, 3)
      .split('\n')
      .map((line) => `  ${JSON.stringify(line)},`),
    '];',
    '/** The wording data, parsed from its text once, when a problem is first worded. */',
    'let parsed;',
    about,
    `export function ${name}() {`,
    "  parsed ??= JSON.parse(TEXT.join('\\n'));",
    '  return parsed;',
    '}',
  ];
}

/** The wording data of the bundled contract: what contract.js holds. @param {any} doc */
export function contractWording(doc) {
  const components = doc.components ?? {};
  return {
    components: {
      schemas: Object.fromEntries(
        Object.entries(components.schemas ?? {}).map(([name, schema]) => [name, wordingOf(schema)]),
      ),
      parameters: Object.fromEntries(
        Object.entries(components.parameters ?? {}).map(([name, parameter]) => [name, parameterOf(parameter)]),
      ),
    },
  };
}

/** @param {any} doc the bundled contract @param {string} header */
export function buildContractModules(doc, header) {
  const components = doc.components ?? {};
  const contract = contractWording(doc);
  const examples = Object.fromEntries(
    Object.entries(components.examples ?? {}).map(([name, /** @type {any} */ example]) => [
      name,
      typeof example.summary === 'string'
        ? { summary: example.summary, value: example.value }
        : { value: example.value },
    ]),
  );
  const aboutContract = [
    '/**',
    ' * The parts of the bundled contract (openapi.json) that word a validation problem: the component',
    ' * schemas and parameters with their constraints, `$ref`s and titles, and the first line of the',
    ' * description of a schema holding `pattern` or `propertyNames` (no other descriptions, no',
    " * examples, defaults or `x-` extensions). An issue's `schemaPath` (`#/components/schemas/...`,",
    ' * `#/components/parameters/...`) resolves in it as in openapi.json.',
    ' */',
  ].join('\n');
  const aboutExamples =
    "/** The contract's named examples (`components.examples` of openapi.json), by name: summary and value. */";
  return {
    // As JSON text, one schema a line, parsed the first time a problem is worded: as an object
    // literal it took a third of the start of a program that imports one operation's validation
    // and validates a payload (bench/startup.mjs, target: within 1.3x of a bare Node start), for
    // data that only an invalid payload reads. test/contract/wording.test.ts holds it equal to
    // contractWording() of the bundle.
    'contract.js': [`// ${header}`, ...lazyWordingCode(contract, 'contract', aboutContract), ''].join('\n'),
    'contract.d.ts': [
      `// ${header}`,
      aboutContract,
      'export declare function contract(): {',
      '  readonly components: {',
      '    /** The component schemas, by name: JSON Schema 2020-12 objects as above. */',
      '    readonly schemas: Readonly<Record<string, unknown>>;',
      '    /** The component parameters, by name: `name`, `in`, `required` and `schema`. */',
      '    readonly parameters: Readonly<Record<string, unknown>>;',
      '  };',
      '};',
      '',
    ].join('\n'),
    'examples.js': `// ${header}\n${aboutExamples}\nexport const examples = ${literal(examples, 1)};\n`,
    'examples.d.ts': [
      `// ${header}`,
      '/** A named example of the contract. */',
      'export interface ContractExample {',
      '  readonly summary?: string;',
      '  readonly value: unknown;',
      '}',
      aboutExamples,
      'export declare const examples: Readonly<Record<string, ContractExample>>;',
      '',
    ].join('\n'),
  };
}

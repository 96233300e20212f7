// Code samples of the reference docs (Redoc's `x-codeSamples`), derived from the bundled contract:
// the operation index, each operation's first request example and first answers, and the
// result-code catalog. Nothing here is written per operation: the client call's arguments come
// from the operation index, as the client's own types do (a test type-checks every sample).
import { deref } from './refs.mjs';

/** The first-party package, as a merchant imports it. */
const PACKAGE = 'gateway-contract';

/** A JavaScript identifier needs no quotes as an object key. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A value as a TypeScript literal: unquoted keys where possible, single-quoted strings.
 * @param {unknown} value @param {string} indent @returns {string}
 */
export function tsLiteral(value, indent = '') {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : tsLiteral(k)}: ${tsLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

/** A shell word in single quotes. @param {string} text */
function shellQuote(text) {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * The values of an operation's path and query parameters for its first request example: the
 * body's field of the same name when it has one (the service wants them equal), else the
 * parameter's own example.
 * @param {any} doc @param {any} op the operation object @param {any} body the example's body
 */
export function parameterValues(doc, op, body) {
  /** @type {{ path: Record<string, string>, query: Record<string, string> }} */
  const values = { path: {}, query: {} };
  for (const p of op.parameters ?? []) {
    const param = deref(doc, p);
    const value = typeof body?.[param.name] === 'string' ? body[param.name] : (param.example ?? param.schema?.example);
    if (typeof value !== 'string')
      throw new Error(`docs: no example value for the ${param.in} parameter "${param.name}" of ${op.operationId}`);
    if (param.in === 'path' || param.in === 'query')
      values[/** @type {'path' | 'query'} */ (param.in)][param.name] = value;
  }
  return values;
}

/** The named examples of a media type, dereferenced, in contract order. @param {any} doc @param {any} media */
export function examplesOf(doc, media) {
  return Object.entries(media?.examples ?? {}).map(([name, ex]) => ({ name, ...deref(doc, ex) }));
}

/** The value at a JSON Pointer. @param {any} value @param {string} pointer */
function at(value, pointer) {
  return pointer
    .split('/')
    .filter(Boolean)
    .reduce((/** @type {any} */ node, key) => node?.[key], value);
}

/**
 * The samples of one operation: the typed client, and curl against the mock.
 * @param {any} doc @param {any} info the operation's entry of the operation index
 * @param {any} catalogEntry the operation's entry of the result-code catalog
 * @param {any} pathItem the path item (its `servers`) @param {any} op the operation object
 */
export function operationSamples(doc, info, catalogEntry, pathItem, op) {
  const [request] = examplesOf(doc, op.requestBody.content['application/json']);
  const answers = examplesOf(doc, op.responses['200'].content['application/json']);
  if (!request || answers.length === 0)
    throw new Error(`docs: ${info.operationId} needs a request example and an answer example`);
  const params = parameterValues(doc, op, request.value.body);
  const headSchema = deref(doc, deref(doc, op.requestBody.content['application/json'].schema).properties.head);
  // A head with a signature (mandatory, or optional as for modify order) is signed by the client.
  const signed = info.signature !== 'none';
  const needsClientId = (headSchema.required ?? []).includes('clientId');
  const codeOf = (/** @type {any} */ answer) =>
    at(answer.value, `${catalogEntry.location}/${catalogEntry.fields.code}`);
  const codes = new Map(catalogEntry.codes.map((/** @type {any} */ c) => [c.code, c]));
  const failure = answers.find((a) => codes.get(codeOf(a))?.outcome === 'failure');
  const hasPending = catalogEntry.codes.some((/** @type {any} */ c) => c.outcome === 'pending');

  // The call's arguments besides the body, as the operation index says (and the client's types
  // derive): the parameters the body does not carry, then the head's token. Comments on lines of
  // their own: the samples panel is narrow.
  const fromHead = info.parameters
    .filter((/** @type {any} */ p) => p.source === 'head')
    .map((/** @type {any} */ p) => p.name);
  const callArgs = info.parameters
    .filter((/** @type {any} */ p) => p.source === 'argument')
    .flatMap((/** @type {any} */ p) => [
      `  // the ${p.in} ${p.name}${fromHead.length ? ` (the client adds the ${fromHead.join(' and ')})` : ''}`,
      `  ${p.name}: ${tsLiteral(params[/** @type {'path' | 'query'} */ (p.in)][p.name])},`,
    ]);
  if (info.credential) {
    const described = deref(doc, headSchema.properties[info.credential.head])?.description;
    const env = info.credential.argument.replace(/[A-Z]/g, (/** @type {string} */ c) => `_${c}`).toUpperCase();
    callArgs.push(
      ...(described ? [`  // head.${info.credential.head}: ${String(described).split('.')[0].trim()}`] : []),
      `  ${info.credential.argument}: process.env.${env}!,`,
    );
  }
  const typescript = [
    `import { createGatewayClient${signed ? ', createChecksumSigner' : ''} } from '${PACKAGE}';`,
    '',
    '// {base_url} and {router_url}: here the mock of `npm start`',
    'const client = createGatewayClient({',
    "  gatewayUrl: 'http://127.0.0.1:4010',",
    "  routerUrl: 'http://127.0.0.1:4010',",
    ...(signed
      ? ['  // signs the exact body bytes sent', '  signer: createChecksumSigner(process.env.MERCHANT_KEY!),']
      : []),
    ...(needsClientId ? [`  clientId: ${tsLiteral(request.value.head.clientId ?? 'C11')},`] : []),
    '  // checks the request before sending, the answer on arrival',
    '  validate: true,',
    '});',
    '',
    `const result = await client.${info.operationId}({`,
    ...callArgs,
    `  body: ${tsLiteral(request.value.body, '  ')},`,
    '});',
    '',
    "if (result.outcome === 'success') {",
    '  console.log(result.code, result.data.body);',
    ...(hasPending
      ? [
          "} else if (result.outcome === 'pending') {",
          '  // the final outcome follows later',
          '  console.log(result.code, result.message);',
        ]
      : []),
    ...(failure
      ? [
          `} else if (result.code === ${tsLiteral(codeOf(failure))}) {`,
          `  // ${failure.summary ?? codes.get(codeOf(failure)).meaning}`,
        ]
      : []),
    '} else {',
    '  console.error(result.code, result.message, result.meaning);',
    '}',
    '',
  ].join('\n');

  const server = pathItem.servers?.[0];
  const variable = server ? Object.keys(server.variables ?? {})[0] : undefined;
  const base = server
    ? server.url.replace(`{${variable}}`, server.variables[/** @type {string} */ (variable)].default)
    : 'http://127.0.0.1:4010';
  const path = info.path.replace(/\{(\w+)\}/g, (/** @type {string} */ _, /** @type {string} */ name) =>
    encodeURIComponent(params.path[name]),
  );
  const query = new URLSearchParams(params.query).toString();
  const curl = [
    `# {${variable}}: here the mock of \`npm start\`.`,
    '# Prefer picks one of its named answers',
    '# (see "Answers of the mock").',
    ...(signed ? ['# head.signature: the CHECKSUM over the', '# exact body bytes.'] : []),
    `curl -sS -X POST ${shellQuote(`${base}${path}${query ? `?${query}` : ''}`)} \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -H ${shellQuote(`Prefer: example=${answers[0].name}`)} \\`,
    "  --data-binary @- <<'JSON'",
    JSON.stringify(request.value, null, 2),
    'JSON',
    '',
  ].join('\n');
  return [
    { lang: 'TypeScript', label: 'TypeScript', source: typescript },
    { lang: 'Shell', label: 'curl', source: curl },
  ];
}

/**
 * The samples of the webhook: receiving it with createWebhookReceiver, and a curl that posts a
 * sample notification to a receiver.
 * @param {any} doc @param {any} info @param {any} op
 */
export function webhookSamples(doc, info, op) {
  const [notification] = examplesOf(doc, op.requestBody.content['application/json']);
  if (!notification) throw new Error(`docs: ${info.operationId} needs a request example`);
  // Short lines: the description column is narrow.
  const typescript = [
    "import { createServer } from 'node:http';",
    'import {',
    '  createWebhookReceiver,',
    '  createChecksumVerifier,',
    `} from '${PACKAGE}';`,
    '',
    'const receiver = createWebhookReceiver({',
    '  // checks head.signature over the raw body',
    '  verifier: createChecksumVerifier(process.env.MERCHANT_KEY!),',
    '});',
    '',
    '// {merchant_response_url} points here. The handler',
    '// reads the raw body, verifies the signature, checks',
    '// the contract, refuses replays, and sends the reply',
    '// envelope (00 when accepted).',
    'const handler = receiver.nodeHandler(async (event) => {',
    '  const { tokenIndexNumber, tokenStatus } = event.body.tokenInfo;',
    '  // INIT, SUSPENDED, ACTIVE, DEAD or FAILED',
    '  console.log(tokenIndexNumber, tokenStatus);',
    '});',
    'createServer(handler).listen(8080);',
    '',
    '// Other frameworks: receiver.receive(rawBody) gives',
    '// { accepted, reply }; send reply as JSON.',
    '',
  ].join('\n');
  const curl = [
    '# A sample notification, to your receiver (here',
    '# one on 127.0.0.1:8080). Its signature is a',
    '# placeholder: a verifying receiver answers 1001',
    '# (Signature Validation Failure). To see 00, send',
    '# one signed with your key: sendTokenNotification.',
    "curl -sS -X POST 'http://127.0.0.1:8080/' \\",
    "  -H 'Content-Type: application/json' \\",
    "  --data-binary @- <<'JSON'",
    JSON.stringify(notification.value, null, 2),
    'JSON',
    '',
  ].join('\n');
  return [
    {
      lang: 'TypeScript',
      label: 'TypeScript',
      title: 'TypeScript: receive it with createWebhookReceiver',
      source: typescript,
    },
    { lang: 'Shell', label: 'curl', title: 'curl: post a sample notification to your receiver', source: curl },
  ];
}

// The webhook receiver on forged notifications of about 1 MiB (the default maxBytes), one per shape
// of body, against JSON.parse of the same bytes: what a notification whose signature is not the
// service's costs before it is refused (target: at most 3x JSON.parse of the same bytes, decoded,
// whatever its shape; D-113; against the text already decoded, reported). Each shape
// twice: with a signature of the right form that is not the service's (the CHECKSUM verifier
// refuses it once decrypted, without hashing the body), and with a signature the service made for
// another body, as one who saw a notification could send (the verifier hashes the forged body to
// compare). The bytes go to receive() as the adapters pass them; each notification with the first
// signature also goes as a text, as a framework that read the body as text would pass it.

import { createChecksumVerifier, generateSignature } from '../dist/signing/index.js';
import { createWebhookReceiver } from '../dist/webhook/index.js';
import { pairedMsPerRun } from './stats.mjs';

const KEY = 'k3yK3yk3yK3yk3yK';
/** A signature of the right form (108 Base64 characters) that is not the service's. */
const FORGED = `${'Zm9yZ2Vk'.repeat(13)}AAA=`;
/** The envelope's head, with the signature given. */
const headWith = (/** @type {string} */ signature) =>
  `{"version":"v1","requestTimestamp":"1768971330000","requestId":"NTF-1","signatureType":"CHECKSUM","signature":"${signature}"}`;
/** Room left for the envelope around a filling. */
const SIZE = 1024 * 1024 - 1024;

/** Units joined by commas until they fill about SIZE characters. */
function fill(/** @type {(n: number) => string} */ unit) {
  const parts = [];
  for (let n = 0, length = 0; length < SIZE; n++) {
    const part = unit(n);
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(',');
}

/** @type {[string, (head: string) => string][]} */
const SHAPES = [
  ['flat keys in the body', (head) => `{"head":${head},"body":{${fill((n) => `"a${n}":0`)}}}`],
  ['flat keys beside the body', (head) => `{"head":${head},"body":{},${fill((n) => `"a${n}":0`)}}`],
  [
    'flat keys before head and body, escaped',
    (head) => `{${fill((n) => `"\\u0062o${n}":0`)},"head":${head},"body":{}}`,
  ],
  ['integer keys (their own hashes)', (head) => `{"head":${head},"body":{${fill((n) => `"${n}":0`)}}}`],
  ['a key repeated', (head) => `{"head":${head},"body":{${fill((n) => `"a${n % 1000}":0`)}}}`],
  ['long keys', (head) => `{"head":${head},"body":{${fill((n) => `"${'k'.repeat(1000)}${n}":0`)}}}`],
  ['many short strings', (head) => `{"head":${head},"body":[${fill(() => '"s"')}]}`],
  ['one long string', (head) => `{"head":${head},"body":{"s":"${'x'.repeat(SIZE)}"}}`],
  ['one long string of accented letters', (head) => `{"head":${head},"body":{"s":"${'é'.repeat(SIZE / 2)}"}}`],
  ['many escapes', (head) => `{"head":${head},"body":[${fill(() => '"\\n\\u0041\\"\\\\"')}]}`],
  ['many numbers', (head) => `{"head":${head},"body":[${fill((n) => `-1.5e${n % 300}`)}]}`],
  ['arrays of small objects', (head) => `{"head":${head},"body":[${fill((n) => `{"a":${n},"b":[true]}`)}]}`],
  ['nesting 30 levels deep', (head) => `{"head":${head},"body":[${fill(() => `${'['.repeat(29)}${']'.repeat(29)}`)}]}`],
];

/** Texts that are no notification at all, their root not an object: refused (400) before any signature. */
/** @type {[string, () => string][]} */
const NOT_OBJECTS = [
  ['an array of flat objects', () => `[{${fill((n) => `"a${n}":0`)}}]`],
  ['an array of one long string', () => `["${'x'.repeat(SIZE)}"]`],
  ['an array of one long string, left open', () => `["${'x'.repeat(SIZE)}"`],
];

export async function receiverFigures() {
  const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(KEY), now: () => 1_768_971_330_000 });
  const signatures = [
    ['a signature not the service’s', FORGED],
    ['the service’s signature of another body', await generateSignature('{"mid":"MERCHANT0001"}', KEY)],
  ];
  const cases = [
    ...SHAPES.flatMap(([shape, make]) =>
      signatures.map(([which, signature]) => ({
        what: `a forged notification, ${shape}, ${which}`,
        text: make(headWith(signature)),
        code: '1001',
      })),
    ),
    ...NOT_OBJECTS.map(([what, make]) => ({ what: `not a notification, ${what}`, text: make(), code: '400' })),
  ];
  const figures = [];
  const decoder = new TextDecoder();
  for (const { what, text, code } of cases) {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > 1024 * 1024) throw new Error(`${what}: ${bytes.length} bytes, over maxBytes`);
    const verdict = await receiver.receive(bytes);
    if (verdict.accepted || verdict.code !== code)
      throw new Error(`${what}: answered ${verdict.accepted ? '00' : verdict.code}, not ${code}`);
    const receive = async () => {
      for (let i = 0; i < 5; i++) await receiver.receive(bytes);
    };
    // The references read as far as JSON.parse does: the bytes decoded first (what any receiver of bytes
    // does; the target's reference), or the text given (reported).
    const parseBytes = async () => {
      for (let i = 0; i < 5; i++) parseQuietly(decoder.decode(bytes));
    };
    const parseText = async () => {
      for (let i = 0; i < 5; i++) parseQuietly(text);
    };
    const size = `${Math.round(bytes.length / 1024)} KiB`;
    const vsBytes = await pairedMsPerRun(receive, parseBytes, { rounds: 7, warmup: 1 });
    figures.push({
      group: 'receiver',
      name: `${what} (${size}), vs JSON.parse of its bytes`,
      ...figure(vsBytes),
      target: 'at most 3x',
      met: vsBytes.ratio.value <= 3,
    });
    const vsText = await pairedMsPerRun(receive, parseText, { rounds: 7, warmup: 1 });
    figures.push({
      group: 'receiver',
      name: `${what} (${size}), vs JSON.parse of its text`,
      ...figure(vsText),
      target: 'measured only',
    });
  }
  // The same notifications given to receive() as a text (a framework's text body), against JSON.parse of that text.
  for (const [shape, make] of SHAPES) {
    const text = make(headWith(FORGED));
    const receiveText = async () => {
      for (let i = 0; i < 5; i++) await receiver.receive(text);
    };
    const parseText = async () => {
      for (let i = 0; i < 5; i++) parseQuietly(text);
    };
    const measured = await pairedMsPerRun(receiveText, parseText, { rounds: 7, warmup: 1 });
    figures.push({
      group: 'receiver',
      name: `a forged notification given as a text, ${shape}, vs JSON.parse of it`,
      ...figure(measured),
      target: 'at most 3x',
      met: measured.ratio.value <= 3,
    });
  }
  return figures;
}

/** JSON.parse, its failure ignored. */
function parseQuietly(/** @type {string} */ text) {
  try {
    JSON.parse(text);
  } catch {
    // read as far as JSON.parse reads
  }
}

/** The fields of a figure from a paired measurement of five calls a round. */
function figure(/** @type {{ subject: any, reference: any, ratio: any }} */ measured) {
  return { subject: measured.subject, reference: measured.reference, ratio: measured.ratio, unit: 'ms per 5' };
}

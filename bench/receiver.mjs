// The webhook receiver on forged notifications of about 1 MiB (the default maxBytes), one per shape
// of body, against JSON.parse of the same text: what a notification whose signature is not the
// service's costs before it is refused (target: at most 3x, whatever its shape; D-113). Each shape
// twice: with a signature of the right form that is not the service's (the CHECKSUM verifier
// refuses it once decrypted, without hashing the body), and with a signature the service made for
// another body, as one who saw a notification could send (the verifier hashes the forged body to
// compare). The bytes go to receive() as the adapters pass them; JSON.parse gets the text already
// decoded.

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
  ['flat keys before head and body, escaped', (head) => `{${fill((n) => `"\\u0062o${n}":0`)},"head":${head},"body":{}}`],
  ['integer keys (their own hashes)', (head) => `{"head":${head},"body":{${fill((n) => `"${n}":0`)}}}`],
  ['a key repeated', (head) => `{"head":${head},"body":{${fill((n) => `"a${n % 1000}":0`)}}}`],
  ['long keys', (head) => `{"head":${head},"body":{${fill((n) => `"${'k'.repeat(1000)}${n}":0`)}}}`],
  ['many short strings', (head) => `{"head":${head},"body":[${fill(() => '"s"')}]}`],
  ['one long string', (head) => `{"head":${head},"body":{"s":"${'x'.repeat(SIZE)}"}}`],
  ['many escapes', (head) => `{"head":${head},"body":[${fill(() => '"\\n\\u0041\\"\\\\"')}]}`],
  ['many numbers', (head) => `{"head":${head},"body":[${fill((n) => `-1.5e${n % 300}`)}]}`],
  ['arrays of small objects', (head) => `{"head":${head},"body":[${fill((n) => `{"a":${n},"b":[true]}`)}]}`],
  ['nesting 30 levels deep', (head) => `{"head":${head},"body":[${fill(() => `${'['.repeat(29)}${']'.repeat(29)}`)}]}`],
];

export async function receiverFigures() {
  const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(KEY), now: () => 1_768_971_330_000 });
  const signatures = [
    ['a signature not the service’s', FORGED],
    ['the service’s signature of another body', await generateSignature('{"mid":"MERCHANT0001"}', KEY)],
  ];
  const figures = [];
  for (const [shape, make] of SHAPES) {
    for (const [which, signature] of signatures) {
      const text = make(headWith(signature));
      const bytes = new TextEncoder().encode(text);
      if (bytes.length > 1024 * 1024) throw new Error(`${shape}: ${bytes.length} bytes, over maxBytes`);
      const verdict = await receiver.receive(bytes);
      if (verdict.accepted || verdict.code !== '1001') throw new Error(`${shape}: answered ${verdict.accepted ? '00' : verdict.code}, not 1001`);
      // Five of each per round: one notification takes about a millisecond.
      const measured = await pairedMsPerRun(
        async () => {
          for (let i = 0; i < 5; i++) await receiver.receive(bytes);
        },
        async () => {
          for (let i = 0; i < 5; i++) JSON.parse(text);
        },
        { rounds: 9, warmup: 2 },
      );
      figures.push({
        group: 'receiver',
        name: `a forged notification, ${shape}, ${which} (${Math.round(bytes.length / 1024)} KiB), vs JSON.parse`,
        subject: measured.subject,
        reference: measured.reference,
        ratio: measured.ratio,
        unit: 'ms per 5',
        target: 'at most 3x',
        met: measured.ratio.value <= 3,
      });
    }
  }
  return figures;
}

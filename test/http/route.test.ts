// The contract's one path matching (src/http/route.ts), used by the proxy, the sandbox and the HAR
// reader: every operation at its exact path, nothing else; a path parameter decoded once, and refused
// where a front that normalises paths (dot segments, decoding, backslashes, ';' parameters) would
// route the request elsewhere or read another value. Generated paths prove it; examples illustrate.
import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { matchOperation, readPathParameter } from '../../src/http/route.js';
import { harRecords } from '../../src/inputs/har.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { fcParameters } from '../helpers/arbitraries.js';

const TOKENIZE = (mid: string) => `/coft-center/coft/merchant/${mid}/tokenize`;

describe('matchOperation', () => {
  it('finds every operation at its path, and the webhook at none', () => {
    for (const op of operations) {
      if (op.path === null) continue;
      const path = op.path.replace('{mid}', 'MERCHANT0001');
      expect(matchOperation(path)).toMatchObject({ kind: 'operation', operation: { operationId: op.operationId } });
    }
    expect(operations.filter((o) => o.path === null).map((o) => o.operationId)).toEqual(['notifyTokenStatus']);
  });

  it('matches the path as sent: no trailing slash, empty segment, other case, encoded literal or absolute URL', () => {
    for (const path of [
      '/order/v2/preAuth/',
      '//order/v2/preAuth',
      '/order//v2/preAuth',
      '/order/v2/preauth',
      '/order/v2/pre%41uth',
      'http://elsewhere/order/v2/preAuth',
      '*',
      '/coft-center/coft/merchant//tokenize',
      '/api/order/v2/preAuth',
    ])
      expect(matchOperation(path), path).toBeUndefined();
    expect(matchOperation('/api/v1/order/v2/preAuth', { anyBasePath: true })).toMatchObject({ kind: 'operation' });
  });

  it('decodes a path parameter once', () => {
    expect(matchOperation(TOKENIZE('MERCHANT%200001'))).toMatchObject({
      kind: 'operation',
      path: { mid: 'MERCHANT 0001' },
    });
    expect(matchOperation(TOKENIZE('M%C3%A9'))).toMatchObject({ kind: 'operation', path: { mid: 'Mé' } });
  });

  it('refuses a path parameter a front could read as another path, naming the parameter, never its value', () => {
    for (const mid of [
      '..',
      '.',
      '%2e%2e',
      '%2E.',
      '.%2e',
      '..;x',
      '.;',
      'M%2F..',
      'a%2Fb',
      'a%5Cb',
      'a\\b',
      '%252e%252e',
      'a%25',
      'a;jsessionid=1',
      '%zz',
      '%E0%A4%A',
    ]) {
      const match = matchOperation(TOKENIZE(mid));
      expect(match, mid).toMatchObject({
        kind: 'unsafe',
        parameter: 'mid',
        operation: { operationId: 'tokenizeCard' },
      });
      if (match?.kind === 'unsafe' && mid.length > 2) expect(match.message).not.toContain(mid);
    }
  });

  /** What fronts do to a path before routing it: each must route a path we accept to the same operation and value. */
  const FRONTS: [string, (path: string) => string][] = [
    ['WHATWG URL normalisation', (p) => new URL(`http://front${p}`).pathname],
    ['decoding before routing', (p) => decodeURIComponent(p)],
    ['backslash as slash', (p) => p.replace(/\\/g, '/')],
    ['";" parameters stripped', (p) => p.replace(/;[^/]*/g, '')],
  ];

  it('accepts only path parameters every front routes to the same operation with the same value (generated segments)', () => {
    const char = fc.constantFrom(
      '.',
      '%',
      '2',
      'e',
      'E',
      'f',
      'F',
      '5',
      'c',
      'C',
      ';',
      '\\',
      'a',
      'M',
      '0',
      '-',
      '_',
      '~',
      ' ',
      'é',
    );
    const raw = fc.array(char, { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(raw, (segment) => {
        const path = TOKENIZE(segment);
        const match = matchOperation(path);
        if (match?.kind !== 'operation') return;
        for (const [front, normalise] of FRONTS) {
          let seen: string;
          try {
            seen = normalise(path);
          } catch {
            continue; // a front that cannot decode it refuses it
          }
          const there =
            front === 'decoding before routing'
              ? { kind: 'operation', path: { mid: seen.split('/')[4] } }
              : matchOperation(seen);
          expect(there, `${front}: ${path}`).toMatchObject({ kind: 'operation', path: { mid: match.path.mid } });
        }
      }),
      fcParameters(2_000),
    );
  });

  it('reads any value the client encodes back as itself, or refuses it (generated values)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), (value) => {
        const match = matchOperation(TOKENIZE(encodeURIComponent(value)));
        if (match?.kind === 'operation') expect(match.path.mid).toBe(value);
        else {
          expect(match?.kind).toBe('unsafe');
          expect(/^\.\.?$/.test(value) || /[/\\;%]/.test(value) || /^\.\.?;/.test(value)).toBe(true);
        }
      }),
      fcParameters(2_000),
    );
  });

  it('readPathParameter refuses what does not decode', () => {
    expect(readPathParameter('%')).toEqual({ ok: false, reason: expect.any(String) });
    expect(readPathParameter('ok')).toEqual({ ok: true, value: 'ok' });
  });
});

/** POSTs with the path exactly as given (fetch would normalise it). */
function rawPost(base: string, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/`,
      { method: 'POST', path, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('refuses a dot segment or an encoded slash in a path parameter with 400, and serves the plain path', async () => {
    for (const mid of ['..', '%2e%2e', 'a%2Fb', '..;x']) {
      const answer = await rawPost(sandbox.url, `${TOKENIZE(mid)}?requestId=R1`, '{}');
      expect(answer.status, mid).toBe(400);
      expect(answer.text).toContain('unsafe-path');
      expect(answer.text).toContain('mid');
    }
    expect((await rawPost(sandbox.url, `${TOKENIZE('MERCHANT0001')}?requestId=R1`, '{}')).status).toBe(200);
  });
});

describe('the HAR reader', () => {
  it('reads a recorded path parameter by the same rule: an encoded slash is a problem of the entry, not a value', () => {
    const entry = (mid: string) => ({
      request: {
        method: 'POST',
        url: `https://gw.example/api${TOKENIZE(mid)}?requestId=R1`,
        postData: { mimeType: 'application/json', text: '{}' },
      },
      response: { status: 200, content: { mimeType: 'text/plain' } },
    });
    const records = [
      ...harRecords(JSON.stringify({ log: { entries: [entry('a%2Fb'), entry('MERCHANT0001')] } }), { file: 'run.har' }),
    ];
    expect(records[0]).toMatchObject({ operationId: 'tokenizeCard', unreadable: { rule: 'safePathParameter' } });
    expect(records[1]).toMatchObject({ operationId: 'tokenizeCard', path: { mid: 'MERCHANT0001' } });
  });
});

// The webhook receiver's two readings of a notification's text, on generated JSON and near-JSON
// text: before the signature, locating an object's members without reading their values
// (src/json/outline.ts), held against a plain reading of the same text (strings read character by
// character, keys decoded by JSON.parse) and against JSON.parse itself; after it, checkJson
// (src/json/scan.ts), held against JSON.parse and a plain check for a repeated key. And where the
// value a JSON Pointer names starts (src/json/position.ts), held against JSON.parse.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberText, valueEnd } from '../../src/json/member.js';
import { closedStringEnd, jsonSpace, type Outline, outlineObject, type Span } from '../../src/json/outline.js';
import { pointerOffset } from '../../src/json/position.js';
import { checkJson, depthExceeds } from '../../src/json/scan.js';
import { edited, fcParameters } from '../helpers/arbitraries.js';

const NAMES = ['head', 'body'];

/** The plain form of outlineObject: every character read one by one, each key decoded by JSON.parse. */
function plainOutline(text: string, from: number, names: readonly string[], maxDepth: number): Outline {
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  const space = (i: number) => {
    let j = i;
    while (isSpace(text[j])) j++;
    return j;
  };
  const stringEnd = (i: number) => {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j + 1;
    }
    return -1;
  };
  /** The end of the value at i, -1 when never closed, -2 when too deep. */
  const valueEnd = (i: number): number => {
    if (text[i] === '"') return stringEnd(i);
    if (text[i] === '{' || text[i] === '[') {
      let level = 0;
      for (let j = i; j < text.length; j++) {
        const c = text[j];
        if (c === '"') {
          const end = stringEnd(j);
          if (end < 0) return -1;
          j = end - 1;
        } else if (c === '{' || c === '[') {
          if (++level > maxDepth - 1) return -2;
        } else if ((c === '}' || c === ']') && --level === 0) return j + 1;
      }
      return -1;
    }
    let j = i;
    while (j < text.length && !isSpace(text[j]) && !',}]'.includes(text[j] as string)) j++;
    return j;
  };
  const decode = (raw: string) => {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return undefined;
    }
  };
  if (text[from] !== '{') return { ok: false, at: from };
  const members = new Map<string, Span>();
  let i = space(from + 1);
  if (text[i] === '}') return { ok: true, members, end: i + 1 };
  for (;;) {
    if (text[i] !== '"') return { ok: false, at: i };
    const keyEnd = stringEnd(i);
    if (keyEnd < 0) return { ok: false, at: text.length };
    const key = decode(text.slice(i, keyEnd));
    const colon = space(keyEnd);
    if (text[colon] !== ':') return { ok: false, at: colon };
    const start = space(colon + 1);
    const end = valueEnd(start);
    if (end === -2) return { ok: false, tooDeep: true };
    if (end === -1) return { ok: false, at: text.length };
    if (end === start) return { ok: false, at: start };
    if (key !== undefined && names.includes(key) && !members.has(key)) members.set(key, { start, end });
    i = space(end);
    if (text[i] === '}') return { ok: true, members, end: i + 1 };
    if (text[i] !== ',') return { ok: false, at: i };
    i = space(i + 1);
  }
}

const key = fc.constantFrom(
  'head',
  'body',
  'bo\\u0064y',
  '\\u0068ead',
  '\\u0068\\u0065\\u0061\\u0064',
  'bo\\u0044y',
  'Body',
  'bod',
  'bodyy',
  'a',
  'x\\"y',
  '\\\\',
  'b\\/ody',
);
const space = fc.constantFrom('', ' ', '\n', ' \t\r\n ');
/** JSON text of every shape, objects keyed with the wanted names (plain and escaped) among others, repeated keys included. */
const json = fc.letrec<{ value: string; object: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.json({ maxDepth: 1 }),
    fc.constantFrom('"\\\\"', '"\\"}"', '"{[\\\\\\""', '"\\u0022"', '-1.5e3', 'true', 'null'),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    tie('object'),
  ),
  object: fc
    .tuple(fc.array(fc.tuple(key, space, tie('value'), space), { maxLength: 5 }), space)
    .map(([members, after]) => `{${members.map(([k, s, v, t]) => `${s}"${k}"${t}:${s}${v}${t}`).join(',')}${after}}`),
})).object;
/** The same text broken by a few edits of the characters that matter to it. */
const nearJson = edited(json, fc.constantFrom(...'{}[]":,\\ u0 '), 400);
const padded = fc.tuple(space, fc.oneof(json, nearJson)).map(([s, t]) => `${s}${t}`);

describe('outlineObject: where members lie, read without their values', () => {
  it('gives the plain reading’s outline on generated JSON and near-JSON text, at every depth limit', () => {
    fc.assert(
      fc.property(padded, fc.integer({ min: 1, max: 6 }), (text, maxDepth) => {
        const from = jsonSpace(text, 0);
        expect(outlineObject(text, from, NAMES, maxDepth)).toEqual(plainOutline(text, from, NAMES, maxDepth));
      }),
      fcParameters(3000),
    );
  });

  it('on JSON: every member where JSON.parse has it; refuses only what JSON.parse refuses or reads as no object, and only what nests too deep', () => {
    fc.assert(
      fc.property(padded, (text) => {
        const from = jsonSpace(text, 0);
        const outline = outlineObject(text, from, NAMES, 4);
        let parsed: unknown;
        let parses = true;
        try {
          parsed = JSON.parse(text);
        } catch {
          parses = false;
        }
        const object = parses && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
        if (!outline.ok && 'at' in outline) expect(object).toBe(false);
        if (!outline.ok && 'tooDeep' in outline) expect(depthExceeds(text, 4)).toBe(true);
        // An object checkJson accepts (JSON, no key repeated) nested within the limit: each member cut out exactly.
        if (object && checkJson(text, { maxDepth: 4 }).ok) {
          expect(outline.ok).toBe(true);
          if (!outline.ok) return;
          expect(jsonSpace(text, outline.end)).toBe(text.length);
          for (const name of NAMES) {
            const span = outline.members.get(name);
            expect(span && text.slice(span.start, span.end)).toBe(memberText(text, name));
            if (span)
              expect(JSON.parse(text.slice(span.start, span.end))).toEqual((parsed as Record<string, unknown>)[name]);
          }
        }
      }),
      fcParameters(3000),
    );
  });

  it('finds a string’s closing quote past escaped quotes and runs of backslashes, as a reading character by character does', () => {
    const plain = (text: string, i: number) => {
      for (let j = i + 1; j < text.length; j++) {
        if (text[j] === '\\') j++;
        else if (text[j] === '"') return j + 1;
      }
      return -1;
    };
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('"', '\\', 'a', 'u', '0', '\n'), maxLength: 40 }), (rest) => {
        const text = `"${rest}`;
        expect(closedStringEnd(text, 0)).toBe(plain(text, 0));
      }),
      fcParameters(3000),
    );
    expect(closedStringEnd('"\\\\\\"\\\\"x', 0)).toBe(8);
    expect(closedStringEnd('"\\\\\\\\\\"', 0)).toBe(-1);
  });

  it('matches a wanted name written with \\u escapes in either case, and nothing that only resembles it', () => {
    const names = (text: string) => {
      const outline = outlineObject(text, 0, NAMES);
      return outline.ok ? [...outline.members.keys()] : outline;
    };
    expect(names('{"bo\\u0064y":1,"\\u0068\\u0045\\u0041\\u0064":2}')).toEqual(['body']);
    expect(names('{"\\u0068\\u0065\\u0041\\u0044":2}')).toEqual([]);
    expect(names('{"\\u0062\\u006F\\u0064\\u0079":1}')).toEqual(['body']);
    for (const other of [
      'bo\\u0064',
      'bo\\u0064yy',
      'bo\\u064y',
      'bo\\u00\u0016\u0014y',
      'bo\\x64y',
      'b\\ody',
      'bod',
      '',
    ])
      expect(names(`{"${other}":1}`)).toEqual([]);
    // The first of a repeated name is the one located.
    expect(outlineObject('{"body":1,"body":2}', 0, NAMES)).toEqual({
      ok: true,
      members: new Map([['body', { start: 8, end: 9 }]]),
      end: 19,
    });
  });
});

describe('checkJson, the reading after the signature', () => {
  /** Whether a key repeats in an object of JSON text (which JSON.parse accepts), by a plain recursive reading. */
  function plainRepeatedKey(text: string): boolean {
    let i = 0;
    const space = () => {
      while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
    };
    const string = (): string => {
      const start = i++;
      while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      return JSON.parse(text.slice(start, i));
    };
    const value = (): boolean => {
      space();
      const c = text[i];
      let repeated = false;
      if (c === '{' || c === '[') {
        const keys = c === '{' ? new Set<string>() : null;
        i++;
        space();
        if (text[i] === '}' || text[i] === ']') {
          i++;
          return false;
        }
        for (;;) {
          space();
          if (keys) {
            const key = string();
            if (keys.has(key)) repeated = true;
            keys.add(key);
            space();
            i++; // the colon
          }
          if (value()) repeated = true;
          space();
          if (text[i++] !== ',') return repeated;
        }
      }
      if (c === '"') string();
      else while (i < text.length && !' \t\n\r,]}'.includes(text[i] as string)) i++;
      return false;
    };
    return value();
  }

  it('accepts exactly the text JSON.parse accepts with no key repeated, on generated JSON and near-JSON text', () => {
    fc.assert(
      fc.property(padded, (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const checked = checkJson(text);
        expect(checked.ok).toBe(parses && !plainRepeatedKey(text));
        if (!checked.ok)
          expect(checked.message).toMatch(parses ? /^duplicate key at / : /^malformed JSON|^the input is empty$/);
      }),
      fcParameters(3000),
    );
  });
});

describe('pointerOffset: where the value a pointer names starts, for reports', () => {
  /** Every JSON Pointer of a parsed value (RFC 6901 escapes), with the value it names. */
  function pointersOf(value: unknown, at = ''): [string, unknown][] {
    const here: [string, unknown][] = [[at, value]];
    if (value === null || typeof value !== 'object') return here;
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    return here.concat(
      ...entries.map(([key, v]) => pointersOf(v, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)),
    );
  }
  /** Keys that need `~`, `/` and escapes in the text (a quote, a backslash, a control character), beside plain ones. */
  const key = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.string({ unit: fc.constantFrom('~', '/', '"', '\\', '\n', 'a', 'é'), maxLength: 4 }),
  );
  const tree = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object')),
    leaf: fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 6 }),
    ),
    array: fc.array(tie('node'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  })).node;

  it('finds the value JSON.parse has at each pointer, spaced or not, escaped keys included', () => {
    fc.assert(
      fc.property(tree, fc.constantFrom(0, 1, '\t'), (value, space) => {
        const text = JSON.stringify(value, null, space);
        const parsed: unknown = JSON.parse(text);
        for (const [pointer, expected] of pointersOf(parsed)) {
          const start = pointerOffset(text, pointer);
          expect(JSON.parse(text.slice(start, valueEnd(text, start)))).toEqual(expected);
        }
      }),
      fcParameters(1000),
    );
  });

  it('at a member that is not there, stops at the object that lacks it', () => {
    fc.assert(
      fc.property(fc.dictionary(key, fc.integer(), { maxKeys: 4 }), key, (object, missing) => {
        fc.pre(!Object.hasOwn(object, missing));
        const text = ` ${JSON.stringify({ a: object })}`;
        expect(pointerOffset(text, `/a/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`)).toBe(
          text.indexOf(':') + 1,
        );
      }),
      fcParameters(500),
    );
  });
});

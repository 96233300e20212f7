// The place of a validator's error as it may be shown (src/json/pointer.ts, `shownPlace`): one walk
// along the error's pointer, held against the plain form it replaces (the pointer split into its
// segments, then safePointer; the shape written from that pointer with a regular expression), on
// generated payloads and paths: keys of the contract and others, `~` and `/` escapes, array indices
// and digit keys, paths past the end of the payload and past MAX_POINTER_LENGTH. The places of paths
// of field names only are kept from one call to the next: the same paths come back under other
// payloads, and each answer is still the plain form's.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldNames } from '../../generated/fieldNames.js';
import {
  HIDDEN_KEY,
  keptPaths,
  MAX_POINTER_LENGTH,
  pointerSegments,
  safePointer,
  shownPlace,
  walkedPlace,
} from '../../src/json/pointer.js';
import { fcParameters } from '../helpers/arbitraries.js';

/** The plain form: split, then safePointer; the shape with each segment of digits as `#`. */
function plainPlace(root: unknown, instancePath: string): { pointer: string; shape: string } {
  const pointer = safePointer(root, pointerSegments(instancePath));
  return { pointer, shape: pointer.replace(/\/(?:0|[1-9][0-9]*)(?=\/|$)/g, '/#') };
}

const escaped = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

const key = fc.oneof(
  fc.constantFrom(...fieldNames.slice(0, 40), 'head', 'body', 'a~b', 'a/b', '', '0', '01', '7'),
  fc.string({ maxLength: 6 }),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.integer(),
    fc.string({ maxLength: 4 }),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  ),
})).node;

/** A path into `root`: its own keys and indices as far as they go, then any segments. */
const pathInto = (root: unknown) =>
  fc.tuple(fc.array(fc.nat(), { maxLength: 6 }), fc.array(key, { maxLength: 3 })).map(([picks, tail]) => {
    const segments: string[] = [];
    let node = root;
    for (const pick of picks) {
      if (node === null || typeof node !== 'object') break;
      const keys = Object.keys(node);
      if (keys.length === 0) break;
      const chosen = keys[pick % keys.length] as string;
      segments.push(chosen);
      node = (node as Record<string, unknown>)[chosen];
    }
    return [...segments, ...tail].map((s) => `/${escaped(s)}`).join('');
  });

describe('shownPlace', () => {
  it('is the plain form: the same pointer and shape on generated payloads and paths', () => {
    fc.assert(
      fc.property(
        value.chain((root) => fc.tuple(fc.constant(root), pathInto(root))),
        ([root, instancePath]) => {
          expect(shownPlace(root, instancePath)).toEqual(plainPlace(root, instancePath));
        },
      ),
      fcParameters(300),
    );
  });

  it('is the plain form on paths past MAX_POINTER_LENGTH and under values whose reading throws', () => {
    const deep = `/body${'/0'.repeat(MAX_POINTER_LENGTH)}`;
    const nested = { body: Array.from({ length: 1 }, () => [[[]]]) };
    expect(shownPlace(nested, deep)).toEqual(plainPlace(nested, deep));
    const throwing = {
      get body(): unknown {
        throw new Error('no');
      },
    };
    expect(shownPlace(throwing, '/body/0/head')).toEqual(plainPlace(throwing, '/body/0/head'));
    expect(shownPlace([], '')).toEqual({ pointer: '', shape: '' });
    expect(shownPlace({ x: [1] }, '/x/0').pointer).toBe(`/${HIDDEN_KEY}/0`);
  });

  it('answers a path of field names the same under any payload, kept or walked', () => {
    const [a = '', b = ''] = fieldNames;
    const path = `/${escaped(a)}/${escaped(b)}`;
    for (const root of [{ [a]: { [b]: 1 } }, { [a]: [1] }, [], null, { [a]: { [b]: [2] } }])
      expect(shownPlace(root, path)).toEqual(walkedPlace(root, path));
    expect(shownPlace({}, path)).toBe(shownPlace([], path));
    // A segment of digits is an index under an array and a key under an object.
    for (const root of [{ [a]: [1] }, { [a]: { 0: 1 } }, { [a]: [1] }])
      expect(shownPlace(root, `/${escaped(a)}/0`)).toEqual(walkedPlace(root, `/${escaped(a)}/0`));
  });

  it('keeps the places of paths of field names only: no other key a payload sent', () => {
    fc.assert(
      fc.property(
        value.chain((root) => fc.tuple(fc.constant(root), pathInto(root))),
        ([root, instancePath]) => {
          shownPlace(root, instancePath);
        },
      ),
      fcParameters(300),
    );
    expect(keptPaths().length).toBeGreaterThan(0);
    for (const path of keptPaths())
      expect(pointerSegments(path).filter((segment) => !fieldNames.includes(segment))).toEqual([]);
  });

  it('keeps the premise of the shape: no field name of the contract is all digits', () => {
    expect(fieldNames.filter((name) => /^\d+$/.test(name))).toEqual([]);
  });
});

// Payloads derived from the contract itself, for tests: the generator of src/verify/ (valid values
// of each operation and direction, and every single mutation that breaks exactly one rule, with
// the place validate() must report), the sensitive fields and open maps the contract marks, and
// fast-check's parameters for the suite. Nothing here is written per operation. Every value is synthetic.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  eachNode,
  applyMutation as generatorApplyMutation,
  locationsWhere,
  wrongType,
} from '../../src/verify/mutations.js';
import {
  type Direction,
  type Sample as GeneratorSample,
  sampleArbitrary as generatorSampleArbitrary,
  type Mutation,
  type OperationView,
} from '../../src/verify/operationSamples.js';
import { typeOf, where } from '../../src/verify/schema.js';

export { mutationsOf, ruleLocations } from '../../src/verify/mutations.js';
export {
  type Direction,
  type Mutation,
  namedCheckRules,
  type OperationView,
  operationViews,
} from '../../src/verify/operationSamples.js';
export { satisfies } from '../../src/verify/schema.js';

/** One payload with the query and path parameters of its request (the payload as tests read it). */
export interface Sample extends Omit<GeneratorSample, 'payload'> {
  payload: any;
}

/** Valid samples of one operation and direction: the payload, and for requests its parameters. */
export const sampleArbitrary = (view: OperationView, direction: Direction): fc.Arbitrary<Sample> =>
  generatorSampleArbitrary(view, direction);

/** The sample with one mutation applied (a copy). */
export const applyMutation = (sample: Sample, m: Mutation): Sample => generatorApplyMutation(sample, m);

/** The bundled contract that validate() was generated from (with its extensions: `x-sensitive`, `x-public`). */
export const contract: any = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

/** The node of the bundled contract at a JSON Pointer (`#/components/...`). */
function atPointer(pointer: string): any {
  if (!pointer.startsWith('#/')) return undefined;
  return pointer
    .slice(2)
    .split('/')
    .reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], contract);
}

/**
 * fast-check parameters: a constant seed and a modest number of runs, so that CI is repeatable and
 * quick. `FC_SEED` and `FC_NUM_RUNS` in the environment explore further (see test/README.md).
 */
export function fcParameters(defaultRuns: number): { seed: number; numRuns: number; endOnFailure: boolean } {
  const seed = process.env.FC_SEED === undefined ? 0x5eed7 : Number(process.env.FC_SEED);
  const numRuns = process.env.FC_NUM_RUNS === undefined ? defaultRuns : Number(process.env.FC_NUM_RUNS);
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(numRuns) || numRuns < 1)
    throw new TypeError('FC_SEED and FC_NUM_RUNS must be whole numbers');
  return { seed, numRuns, endOnFailure: true };
}

/** A test timeout that grows with FC_NUM_RUNS (the default runs fit in vitest's 30 s). */
export function fcTimeout(defaultRuns: number): number {
  return Math.max(30_000, Math.ceil((fcParameters(defaultRuns).numRuns / defaultRuns) * 30_000));
}

/** `text` broken by up to three edits (a character deleted, inserted or replaced, within `reach` of its start), the characters drawn from `char`. */
export function edited(text: fc.Arbitrary<string>, char: fc.Arbitrary<string>, reach: number): fc.Arbitrary<string> {
  return fc.tuple(text, fc.array(fc.tuple(fc.nat(reach), fc.nat(2), char), { maxLength: 3 })).map(([t, edits]) => {
    const a = [...t];
    for (const [at, kind, c] of edits) {
      const i = at % (a.length + 1);
      if (kind === 0) a.splice(i, 1);
      else if (kind === 1) a.splice(i, 0, c);
      else a[i] = c;
    }
    return a.join('');
  });
}

// ---------------------------------------------------------------------------------------------
// Sensitive fields

/** A field of a sample that holds a secret (its schema carries `x-sensitive: true`). */
export interface SensitiveSite {
  name: string;
  pointer: string;
  at: string[];
  schemas: any[];
  location: string;
}

/** Whether the contract marks the schema sensitive (the generator's schemas carry no extensions: read in the bundled contract). */
const isSensitive = (s: any) => s && typeof s === 'object' && atPointer(where(s))?.['x-sensitive'] === true;

/** The sensitive fields present in a valid sample. */
export function sensitiveSitesOf(view: OperationView, direction: Direction, sample: Sample): SensitiveSite[] {
  const sites: SensitiveSite[] = [];
  eachNode(view, direction, sample, ({ list, at, pointer }) => {
    const marked = list.find(isSensitive);
    if (marked) sites.push({ name: at[at.length - 1], pointer, at, schemas: list, location: where(marked) });
  });
  return sites;
}

/** Where the contract marks a field sensitive, for every field reachable from `root`. */
export function sensitiveLocations(root: any): Set<string> {
  return locationsWhere(root, isSensitive);
}

/** A copy of the sample with `value` at `at` (a payload path). */
export function plant(sample: Sample, at: string[], value: unknown): Sample {
  return applyMutation(sample, { kind: 'type', rules: [], in: 'body', pointer: '', at, action: 'set', value });
}

// ---------------------------------------------------------------------------------------------
// Open maps: objects whose keys are data (extendInfo, txnRoutingParams, FormDetail.headers, ...)

const isOpenMap = (s: any) =>
  s &&
  typeof s === 'object' &&
  ((s.additionalProperties && typeof s.additionalProperties === 'object') || s.propertyNames !== undefined);

/** An object of a sample whose keys are data, with a value its members must not take. */
export interface OpenMapSite {
  at: string[];
  location: string;
  /** A member value the map's schemas refuse (null when any value is accepted). */
  bad: unknown;
}

/** The open maps present in a valid sample. */
export function openMapSitesOf(view: OperationView, direction: Direction, sample: Sample): OpenMapSite[] {
  const sites: OpenMapSite[] = [];
  eachNode(view, direction, sample, ({ list, at, f, value }) => {
    const map = list.find(isOpenMap);
    if (map && typeOf(value) === 'object')
      sites.push({ at, location: where(map), bad: f.additional ? wrongType(f.additional) : null });
  });
  return sites;
}

/** Where the contract has an open map, for every map reachable from `root`. */
export function openMapLocations(root: any): Set<string> {
  return locationsWhere(root, isOpenMap);
}

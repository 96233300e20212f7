// Type-level tests of the asynchronous helpers (docs/decisions.md, D-117): each returns a promise,
// and a typed program that uses an un-awaited verification as a condition does not compile
// (TS2801: a Promise is always true). Checked by `vitest` (typecheck) and `npm run typecheck`;
// never executed.

import { describe, expectTypeOf, it } from 'vitest';
import { encryptCardData, generateSignature, verifySignature, verifyTxnInfoChecksum } from '../../src/index.js';

declare const text: string;
declare const key: string;
declare const signature: string;
declare const txnInfo: Record<string, unknown>;

describe('the asynchronous helpers', () => {
  it('return promises: awaited, they give the string or the verdict', () => {
    expectTypeOf(generateSignature).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(encryptCardData).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(verifySignature).returns.toEqualTypeOf<Promise<boolean>>();
    expectTypeOf(verifyTxnInfoChecksum).returns.toEqualTypeOf<Promise<boolean>>();
  });

  it('an un-awaited verification as a condition does not compile', async () => {
    // @ts-expect-error TS2801: this condition will always return true (the Promise is always defined).
    if (verifySignature(text, key, signature)) expectTypeOf(signature).toBeString();
    // @ts-expect-error TS2801, in a conditional expression too.
    const verdict = verifyTxnInfoChecksum(txnInfo, key) ? 'valid' : 'forged';
    expectTypeOf(verdict).toBeString();
    // Awaited, it compiles.
    if (await verifySignature(text, key, signature)) expectTypeOf(signature).toBeString();
  });
});

// generated/contract.js keeps the wording data of validation problems as JSON text, parsed the first
// time a problem is worded (bench/startup.mjs): parsed, it is exactly the plain form, what the
// generator derives from the contract bundled fresh from openapi/.
import { describe, expect, it } from 'vitest';
import { contract } from '../../generated/contract.js';
import { contractWording } from '../../scripts/lib/contractModules.mjs';
import { bundledContract } from '../helpers/contract.js';

describe('the wording data of validation problems', () => {
  it('parses to what the generator derives from the contract', async () => {
    expect(contract()).toEqual(contractWording(await bundledContract()));
  });

  it('is parsed once', () => {
    expect(contract()).toBe(contract());
  });
});

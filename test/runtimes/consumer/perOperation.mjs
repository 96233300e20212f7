// @ts-nocheck: runs in a fresh project where the packed package is installed (see checks.mjs).
//
// The per-operation entry, imported as a merchant writes it; checks.mjs loads this module on its own
// so that, unbundled, a package without the entry fails one check rather than the whole program.
export { validateRequest } from 'gateway-contract/validators/initiatePayment';

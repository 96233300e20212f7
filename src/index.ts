// The package's root: its web-standard core, for any runtime (Node, Deno, Bun, workers, browsers):
// validation, the result codes, the typed client, CHECKSUM signing, the webhook receiver and
// sender, card encryption and the reports. Each part is also an entry of its own
// (`gateway-contract/validation`, `/client`, `/signing`, `/webhook`, `/webhook/sender`, `/card`,
// `/reports`, `/validators/<operationId>`), for a program that imports one part and loads no other.
// What needs Node (the sandbox, reading files) has its own entries: `/sandbox`, `/inputs`.
export { operations } from '../generated/operations.js';
export { resultCodes } from '../generated/resultCodes.js';
export type { CardData, CardDataIssue, EncryptCardDataOptions } from './card/encryptCardData.js';
export { buildCardPlaintext, CardDataError, encryptCardData, passesLuhn } from './card/encryptCardData.js';
export * from './client/index.js';
export type { HarOptions } from './inputs/har.js';
export { harRecords } from './inputs/har.js';
export type { NdjsonOptions } from './inputs/ndjson.js';
export { ndjsonRecords } from './inputs/ndjson.js';
export * from './report/index.js';
// Kept on the root until the next major version; the sandbox's defaults live at `/sandbox` (docs/decisions.md, D-135).
export {
  DEFAULT_MERCHANT_KEY as SANDBOX_DEFAULT_MERCHANT_KEY,
  DEFAULT_MID as SANDBOX_DEFAULT_MID,
} from './sandbox/config.js';
export * from './signing/index.js';
export type * from './types.js';
export * from './validation/index.js';
export * from './webhook/index.js';
export * from './webhook/sender.js';

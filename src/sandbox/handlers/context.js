// What every operation handler receives and returns. A handler gets a request that is already
// valid against the contract and answers with a result code of its operation's table, the other
// body fields, and a note for integrators (sent in the x-sandbox-note header, never in the body).

/**
 * @typedef {object} HandlerContext
 * @property {import('../config.js').SandboxConfig} config
 * @property {import('../store.js').Store} store
 * @property {import('../clock.js').Clock} clock
 * @property {import('../instruments.js').Instruments} instruments
 * @property {import('../orders.js').Orders} orders
 * @property {import('../payments.js').Payments} payments
 * @property {import('../cardTokens.js').CardTokens} cardTokens
 * @property {{ privateKey: import('node:crypto').KeyObject, publicKeyPem: string }} cardKey
 *
 * @typedef {object} SandboxRequest
 * @property {string} operationId
 * @property {any} head the request head (valid)
 * @property {any} body the request body (valid)
 * @property {string | undefined} rawBody the exact text of the body as sent
 * @property {Record<string, string>} query
 * @property {Record<string, string>} path
 *
 * @typedef {object} HandlerResult
 * @property {string} code a result code of the operation's table
 * @property {string} [message] one of the table's messages, when the code has several
 * @property {Record<string, unknown>} [fields] the other fields of the answer's body
 * @property {string} [note] why, in words, for the x-sandbox-note header
 */

export {};

// What an answer says: its outcome, result code, status and message, read where the operation's
// catalog says they are.
import { resultCodes } from '../../generated/resultCodes.js';

const OUTCOMES = /** @type {Record<string, 'success' | 'pending'>} */ ({ SUCCESS: 'success', S: 'success', TXN_SUCCESS: 'success', PENDING: 'pending' });

/**
 * The result of an answer: its outcome, result code, status and message, read where the
 * operation's catalog says they are.
 * @param {string} operationId @param {any} data @param {number} httpStatus
 */
export function resultOf(operationId, data, httpStatus) {
  const entry = /** @type {any} */ (resultCodes)[operationId];
  const holder = entry.location.split('/').filter(Boolean).reduce((/** @type {any} */ node, /** @type {string} */ key) => node?.[key], data);
  const code = holder?.[entry.fields.code];
  const status = holder?.[entry.fields.status];
  const known = entry.codes.find((/** @type {any} */ c) => c.code === code);
  const outcome = known && known.status === status ? (OUTCOMES[status] ?? 'failure') : 'failure';
  return { outcome, code, status, message: holder?.[entry.fields.message] ?? known?.messages?.[0] ?? '', meaning: known?.meaning ?? 'A result code that is not in this operation\'s table.', data, httpStatus };
}

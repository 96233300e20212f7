// The checks of one exchange as the proxy sees it: the request (envelope, query and path
// parameters, named checks, and with the merchant key its head signature), and the answer (schema,
// the result code in the operation's own table with its status, and with the key its head
// signature and txnInfo.checksumHash). Problems never carry a value: only pointers, rules and words.
import type { OperationId, OperationInfo } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import { memberText } from '../json/member.js';
import { parseJson } from '../json/parse.js';
import { verifySignatureSync } from '../signing/checksumNode.js';
import { txnInfoChecksumText } from '../signing/txnInfoChecksum.js';
import { codeEntry } from '../transport/result.js';
import type { ValidationIssue } from '../validation/errors.js';
import { validate } from '../validation/index.js';

/** A problem of an exchange: a validation issue and the side of the exchange it belongs to. */
export interface ExchangeIssue extends ValidationIssue {
  side: 'request' | 'answer';
}

/** Nesting deeper than this is refused before parsing (a payload of the contract nests a dozen levels). */
const MAX_DEPTH = 64;

/**
 * The code each operation answers for a head signature that does not match, as the sandbox answers
 * it (the tables of listSubscriptions and createSubscription have no signature code;
 * docs/decisions.md, D-90). initiatePayment carries no signature.
 */
const SIGNATURE_CODES: Readonly<Record<string, string>> = {
  tokenizeCard: '1001',
  preAuthorize: '330',
  listSubscriptions: '400',
  modifyOrder: '1001',
  createSubscription: '2006',
  notifyTokenStatus: '1001',
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string; tooDeep?: true };

/** The JSON of a body (its bytes, or its text once decoded), within the depth bound. */
export const parseBody = (body: Uint8Array | string): Parsed => parseJson(body, { maxDepth: MAX_DEPTH });

function unreadable(side: 'request' | 'answer', parsed: { message: string; tooDeep?: true }): ExchangeIssue {
  const what = side === 'request' ? 'The request body' : 'The answer';
  return {
    side,
    in: 'body',
    pointer: '',
    rule: parsed.tooDeep ? 'maxDepth' : 'json',
    message: parsed.tooDeep
      ? `${what} is nested deeper than ${MAX_DEPTH} levels.`
      : `${what} is not JSON: ${parsed.message}.`,
  };
}

/** Whether `signature` is the CHECKSUM of the exact text of the envelope's `body` member under the key. */
function signatureHolds(text: string, key: string, signature: unknown): boolean {
  const body = memberText(text, 'body');
  try {
    return body !== undefined && verifySignatureSync(body, key, signature);
  } catch {
    return false;
  }
}

export interface RequestVerdict {
  issues: ExchangeIssue[];
  /** The operation's own result code the service would answer, for the first problem that has one. */
  resultCode?: string | undefined;
  /** The named checks that found a problem. */
  firedChecks: string[];
}

/** The checks of a request to `op`, given its body's bytes (already parsed) and its URL's parameters. */
export function checkRequest(
  op: OperationInfo,
  text: string,
  parsed: Parsed,
  params: { query?: string; path?: Record<string, string> },
  key: string | undefined,
): RequestVerdict {
  if (!parsed.ok) return { issues: [unreadable('request', parsed)], firedChecks: [] };
  const operationId = op.operationId as OperationId;
  const result = validate(
    operationId,
    'request',
    parsed.value,
    operationId === 'notifyTokenStatus' ? { parameters: false } : params,
  );
  const issues: ExchangeIssue[] = result.valid ? [] : result.errors.map((e) => ({ ...e, side: 'request' as const }));
  let resultCode: string | undefined = result.valid ? undefined : result.resultCode?.code;
  const head = isObject(parsed.value) && isObject(parsed.value.head) ? parsed.value.head : undefined;
  if (
    key !== undefined &&
    op.signature !== 'none' &&
    head &&
    typeof head.signature === 'string' &&
    !signatureHolds(text, key, head.signature)
  ) {
    const code = SIGNATURE_CODES[operationId];
    issues.push({
      side: 'request',
      in: 'body',
      pointer: '/head/signature',
      rule: 'signature',
      message: "The head signature is not the CHECKSUM of the body's exact text under the merchant key.",
      ...(code ? { resultCode: code } : {}),
    });
    resultCode ??= code;
  }
  const checks = new Set<string>(op.namedChecks);
  const firedChecks = [...new Set(issues.filter((i) => checks.has(i.rule)).map((i) => i.rule))];
  return { issues, resultCode, firedChecks };
}

export interface AnswerVerdict {
  issues: ExchangeIssue[];
  /** The answer's result code when it is in the operation's table with its status. */
  code?: string | undefined;
}

/** The checks of an answer of `op` (the webhook: the merchant's reply). */
export function checkAnswer(op: OperationInfo, text: string, parsed: Parsed, key: string | undefined): AnswerVerdict {
  if (!parsed.ok) return { issues: [unreadable('answer', parsed)] };
  const operationId = op.operationId as OperationId;
  const result = validate(operationId, 'response', parsed.value);
  const issues: ExchangeIssue[] = result.valid ? [] : result.errors.map((e) => ({ ...e, side: 'answer' as const }));
  // The result code: in the operation's own table, with the table's status.
  const { location, fields } = resultCodes[operationId];
  let holder: unknown = parsed.value;
  for (const k of location.split('/').filter(Boolean)) holder = isObject(holder) ? holder[k] : undefined;
  const info = isObject(holder) ? holder : undefined;
  const code = info?.[fields.code];
  const status = info?.[fields.status];
  const entry = codeEntry(operationId, code);
  const pointer = `${location}/${fields.code}`;
  let met: string | undefined;
  if (info && typeof code === 'string') {
    if (!entry)
      issues.push({
        side: 'answer',
        in: 'body',
        pointer,
        rule: 'resultCodeTable',
        message: `The result code is not one of ${operationId}'s table.`,
      });
    else if (entry.status !== status)
      issues.push({
        side: 'answer',
        in: 'body',
        pointer: `${location}/${fields.status}`,
        rule: 'resultStatus',
        message: `The status does not go with code ${entry.code} in ${operationId}'s table (${entry.status}).`,
      });
    else met = entry.code;
  }
  if (key !== undefined) {
    const root = isObject(parsed.value) ? parsed.value : undefined;
    const head = isObject(root?.head) ? root.head : undefined;
    if (head && typeof head.signature === 'string' && !signatureHolds(text, key, head.signature))
      issues.push({
        side: 'answer',
        in: 'body',
        pointer: '/head/signature',
        rule: 'signature',
        message: "The answer's head signature is not the CHECKSUM of its body under the merchant key.",
      });
    const body = isObject(root?.body) ? root.body : undefined;
    const txnInfo = isObject(body?.txnInfo) ? body.txnInfo : undefined;
    if (txnInfo && typeof txnInfo.checksumHash === 'string') {
      let holds = false;
      try {
        holds = verifySignatureSync(txnInfoChecksumText(txnInfo), key, txnInfo.checksumHash);
      } catch {
        holds = false;
      }
      if (!holds)
        issues.push({
          side: 'answer',
          in: 'body',
          pointer: '/body/txnInfo/checksumHash',
          rule: 'checksumHash',
          message: 'txnInfo.checksumHash is not the CHECKSUM of the other txnInfo values under the merchant key.',
        });
    }
  }
  return { issues, code: met };
}

/**
 * The HTTP status of an answer of the service (or of the merchant's reply to a notification): every
 * outcome is HTTP 200 with its result code (openapi/DECISIONS.md, D-09), so any other status is a
 * problem, whatever its body says (docs/decisions.md, D-110).
 */
export function checkStatus(status: number): ExchangeIssue[] {
  if (status === 200) return [];
  return [
    {
      side: 'answer',
      in: 'body',
      pointer: '',
      rule: 'http-status',
      message: `The answer is HTTP ${status}: every outcome of the service is HTTP 200 with its result code (D-09).`,
    },
  ];
}

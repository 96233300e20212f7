// One request of verify, as a merchant's code would send it: the head of the operation's family,
// the body serialized once and signed over exactly those bytes with the merchant key, the query and
// path parameters of the contract, posted to the right host within a time and read within a size.
// Verify also sends requests a service must refuse: a spec may override or leave out head fields,
// not sign, or sign with another key. Every exchange is kept, whole, for the findings it may show.
import { type OperationId, type OperationInfo, operations } from '../../generated/operations.js';
import { generateSignatureSync } from '../signing/checksumNode.js';
import { headBuilders } from '../transport/heads.js';
import { readBounded } from '../transport/send.js';
import { isJsonObject as isObject } from './schema.js';
import { type Budget, BudgetSpent, budgetLeft, type Exchange, type RequestSpec, type Target } from './types.js';

const byId = new Map<string, OperationInfo>(operations.map((o) => [o.operationId, o]));

/** The operation's entry in the contract's operation index. */
export function operationInfo(operationId: OperationId): OperationInfo {
  const op = byId.get(operationId);
  if (!op) throw new TypeError(`Unknown operation ${operationId}.`);
  return op;
}

/** The query of a request: given, or from the body and head fields the contract names as the parameters' sources. */
function queryOf(op: OperationInfo, spec: RequestSpec, head: Record<string, unknown>): Record<string, string> {
  if (spec.query) return spec.query;
  const query: Record<string, string> = {};
  const body = isObject(spec.body) ? spec.body : {};
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const value = p.source === 'head' ? head[p.name] : body[p.name];
    if (typeof value === 'string') query[p.name] = value;
  }
  return query;
}

/** The URL of a request to the target. */
export function urlOf(target: Target, op: OperationInfo, spec: RequestSpec, head: Record<string, unknown>): string {
  const base = (op.host === 'router' ? target.routerUrl : target.gatewayUrl).replace(/\/+$/, '');
  const path = (op.path ?? '').replace('{mid}', encodeURIComponent(spec.pathMid ?? target.mid));
  const query = new URLSearchParams(queryOf(op, spec, head)).toString();
  return `${base}${path}${query ? `?${query}` : ''}`;
}

/** The head, built for the operation's family around the spec's own fields. */
function headOf(target: Target, op: OperationInfo, spec: RequestSpec): Record<string, unknown> {
  const built = headBuilders[op.head.schema]({
    now: Date.now,
    clientId: target.clientId,
    requestId:
      op.head.schema === 'TokenServiceRequestHead' ? globalThis.crypto.randomUUID().replace(/-/g, '') : undefined,
    signatureType: op.head.schema === 'TokenServiceRequestHead' ? 'CHECKSUM' : undefined,
    token: spec.token,
  });
  const head: Record<string, unknown> = { ...built, ...spec.head };
  for (const name of spec.omitHead ?? []) delete head[name];
  return head;
}

/** The envelope's text: the body serialized once, the signature (where the operation is signed) over exactly those bytes. */
export function envelopeOf(
  target: Target,
  op: OperationInfo,
  spec: RequestSpec,
): { text: string; head: Record<string, unknown> } {
  const head = headOf(target, op, spec);
  const bodyText = JSON.stringify(spec.body);
  const sign = spec.sign ?? op.signature !== 'none';
  const signed =
    sign && !spec.omitHead?.includes('signature')
      ? { ...head, signature: generateSignatureSync(bodyText, spec.signWith ?? target.key) }
      : head;
  return { text: `{"head":${JSON.stringify(signed)},"body":${bodyText}}`, head: signed };
}

const headersOf = (headers: Headers): Record<string, string> => Object.fromEntries([...headers].slice(0, 64));

/** Sends one request within the run's budget and the target's time and size bounds; never throws but BudgetSpent. */
export async function send(target: Target, budget: Budget, spec: RequestSpec): Promise<Exchange> {
  if (!budgetLeft(budget)) throw new BudgetSpent();
  budget.sent += 1;
  const op = operationInfo(spec.operationId);
  const { text, head } = envelopeOf(target, op, spec);
  const url = urlOf(target, op, spec, head);
  const requestHeaders = { 'content-type': 'application/json', accept: 'application/json' };
  const started = Date.now();
  const base = {
    operationId: spec.operationId,
    note: spec.note,
    url,
    requestHeaders,
    requestText: text,
    request: { head, body: spec.body },
    started,
  };
  const signal = AbortSignal.timeout(target.timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: requestHeaders,
      body: text,
      redirect: 'manual',
      signal,
    });
    const answerText = await readBounded(response.body, target.maxAnswerBytes, signal);
    const answerHeaders = headersOf(response.headers);
    const durationMs = Date.now() - started;
    if (answerText === null)
      return {
        ...base,
        durationMs,
        status: response.status,
        answerHeaders,
        answerText: '',
        failure: `The answer is larger than ${target.maxAnswerBytes} bytes; it was not read.`,
      };
    let answer: unknown;
    try {
      answer = JSON.parse(answerText);
    } catch {
      answer = undefined;
    }
    return { ...base, durationMs, status: response.status, answerHeaders, answerText, answer };
  } catch (error) {
    const timedOut = signal.aborted;
    const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
    const failure = timedOut
      ? `No answer within ${target.timeoutMs} ms.`
      : `The request did not complete${typeof code === 'string' ? ` (${code.slice(0, 40)})` : ''}.`;
    return { ...base, durationMs: Date.now() - started, status: 0, answerHeaders: {}, answerText: '', failure };
  }
}

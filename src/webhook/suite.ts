// A conformance run for a merchant's webhook address: a valid notification per token status, and
// every notification the receiver must refuse, each checked against the reply code the table of
// section 7.1 and the decisions (docs/decisions.md, D-34 to D-37, D-51) give for it. Each case is
// signed over bytes of its own (the fields of tokenInfo in a random order; values unchanged), so
// that a receiver which remembers signatures sees a replay only where the run sends one.
import { resultCodes } from '../../generated/resultCodes.js';
import type { Signer } from '../signing/checksum.js';
import { GatewayError, GatewayNonJsonError } from '../transport/errors.js';
import { tokenServiceHead } from '../transport/heads.js';
import type { Schemas } from '../types.js';
import type { ValidationIssue } from '../validation/validate.js';
import { notificationBody, TOKEN_STATUSES } from './examples.js';
import type { ReplyCode } from './reply.js';
import { type PostNotificationResult, postNotification } from './send.js';

type NotificationBody = Schemas['TokenStatusNotificationBody'];

export interface WebhookSuiteOptions {
  /** The merchant's `{merchant_response_url}`. */
  url: string;
  /** Signs each notification's body with the merchant key, e.g. `createChecksumSigner(merchantKey)`. */
  signer: Signer;
  /** The merchant id the receiver serves: body.mid of every notification but the one that checks 407 (default: the example's). */
  mid?: string | undefined;
  /** body.tokenInfo.tokenIndexNumber (default: the example's). */
  tokenIndexNumber?: string | undefined;
  /** head.clientId, when the merchant has several keys. */
  clientId?: string | undefined;
  /** How old the stale notification is, in milliseconds (default one hour; the receiver's default limit is 5 minutes). */
  staleByMs?: number | undefined;
  /** Milliseconds to wait for each reply (default 30 000). */
  timeoutMs?: number | undefined;
  /** A fetch to use instead of the global one. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Clock, epoch milliseconds (default `Date.now`). */
  now?: (() => number) | undefined;
}

/** One case of the run and its verdict. */
export interface WebhookSuiteCase {
  /** What is sent: `valid notification, tokenStatus ACTIVE`, `bad signature`, ... */
  name: string;
  /** The reply code the receiver must answer. */
  expected: ReplyCode;
  /** Where that code comes from: the table of section 7.1 or a decision. */
  basis: string;
  passed: boolean;
  /** The HTTP status of the reply, when one came. */
  httpStatus?: number;
  /** The reply's result code, when it reads like one. */
  code?: string;
  /** What is wrong: the reply against the contract, the code, or the delivery. Never a signature or a key. */
  issues: ValidationIssue[];
}

export interface WebhookSuiteResult {
  cases: WebhookSuiteCase[];
  passed: number;
  failed: number;
}

/** A case: what to post, what must come back. */
interface Plan {
  name: string;
  expected: ReplyCode;
  basis: string;
  text: () => Promise<string>;
}

const MESSAGE = new Map(resultCodes.notifyTokenStatus.codes.map((c) => [c.code as string, c.messages[0] ?? '']));
/** A code of the reply as it may be shown: a short word of letters and digits. */
const shownCode = (code: unknown) => (typeof code === 'string' && /^[A-Za-z0-9_]{1,16}$/.test(code) ? code : undefined);

/** A random whole number from 0 to `bound - 1` (bound at most 2^32), without bias: draws outside the last whole multiple of `bound` are drawn again. */
function randomBelow(bound: number): number {
  const limit = 2 ** 32 - (2 ** 32 % bound);
  const draw = new Uint32Array(1);
  for (;;) {
    globalThis.crypto.getRandomValues(draw);
    if ((draw[0] as number) < limit) return (draw[0] as number) % bound;
  }
}

/** The body with the fields of tokenInfo in a random order: the same notification in bytes no other case uses. */
function freshBytes(body: NotificationBody): NotificationBody {
  const entries: [string, unknown][] = Object.entries(body.tokenInfo);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
  }
  return { ...body, tokenInfo: Object.fromEntries(entries) as NotificationBody['tokenInfo'] };
}

/**
 * Runs the conformance cases one after the other against the merchant's address and judges each
 * reply. Resolves with every case's verdict; a case whose notification gets no usable reply
 * (network error, timeout, not JSON) fails with that reason. Rejects only when the first case
 * cannot reach the address at all (`GatewayNetworkError`, `GatewayTimeoutError`).
 */
export async function runWebhookSuite(options: WebhookSuiteOptions): Promise<WebhookSuiteResult> {
  const { url, signer, now = Date.now } = options;
  if (!signer || typeof signer.sign !== 'function')
    throw new TypeError('runWebhookSuite needs a signer, for example createChecksumSigner(merchantKey).');
  const staleByMs = options.staleByMs ?? 60 * 60 * 1000;

  const body = (status: Schemas['TokenStatus'] = 'ACTIVE'): NotificationBody => {
    const b = notificationBody(status);
    if (options.mid !== undefined) b.mid = options.mid;
    if (options.tokenIndexNumber !== undefined) b.tokenInfo.tokenIndexNumber = options.tokenIndexNumber;
    return freshBytes(b);
  };
  const head = (overrides: Record<string, unknown> = {}) => ({
    ...tokenServiceHead({
      now,
      requestId: globalThis.crypto.randomUUID(),
      signatureType: signer.signatureType,
      clientId: options.clientId,
    }),
    ...overrides,
  });
  /** `{"head":...,"body":...}` with the signature over exactly the body's bytes (unless the head says otherwise). */
  const envelope = async (bodyValue: unknown, headOverrides: Record<string, unknown> = {}, omit: string[] = []) => {
    const bodyText = JSON.stringify(bodyValue);
    const h: Record<string, unknown> = { ...head(), signature: await signer.sign(bodyText), ...headOverrides };
    for (const key of omit) delete h[key];
    return `{"head":${JSON.stringify(h)},"body":${bodyText}}`;
  };

  const plans: Plan[] = TOKEN_STATUSES.map((status) => ({
    name: `valid notification, tokenStatus ${status}`,
    expected: '00' as ReplyCode,
    basis: 'section 7.1: 00 SUCCESS',
    text: () => envelope(body(status)),
  }));
  const missingField = body();
  delete (missingField.tokenInfo as Partial<NotificationBody['tokenInfo']>).cardSuffix;
  const replayed = envelope(body());
  const sameSignature = (async () => {
    const text = await replayed;
    const parsed = JSON.parse(text) as { head: Record<string, unknown>; body: unknown };
    // The same body bytes and signature, with the fresh requestId and timestamp anyone can write into the unsigned head.
    const bodyText = text.slice(text.indexOf(',"body":') + 8, -1);
    return `{"head":${JSON.stringify({ ...parsed.head, ...head(), signature: parsed.head.signature })},"body":${bodyText}}`;
  })();
  plans.push(
    {
      name: 'bad signature (signed over other bytes)',
      expected: '1001',
      basis: 'section 7.1: 1001 Signature Validation Failure; D-34 step 3, D-36',
      text: async () => envelope(body(), { signature: await signer.sign(JSON.stringify(body('SUSPENDED'))) }),
    },
    {
      name: 'another signatureType',
      expected: '1400',
      basis: 'section 7.1: 1400 Signature Type is invalid; D-34 step 2',
      text: () => envelope(body(), { signatureType: signer.signatureType === 'JWT' ? 'CHECKSUM' : 'JWT' }),
    },
    {
      name: 'no signatureType',
      expected: '1005',
      basis: 'section 7.1: 1005 Signature type is missing; D-34 step 2',
      text: () => envelope(body(), {}, ['signatureType']),
    },
    {
      name: 'no signature',
      expected: '410',
      basis: 'section 7.1: 410 Mandatory fields missing; D-34 step 2',
      text: () => envelope(body(), {}, ['signature']),
    },
    {
      name: 'no head',
      expected: '1006',
      basis: 'section 7.1: 1006 Head is missing; D-34 step 2',
      text: async () => `{"body":${JSON.stringify(body())}}`,
    },
    {
      name: 'a mandatory field missing (tokenInfo.cardSuffix)',
      expected: '410',
      basis: 'section 7.1: 410 Mandatory fields missing; D-34 step 4',
      text: () => envelope(missingField),
    },
    {
      name: 'a malformed tokenIndexNumber',
      expected: '405',
      basis: 'section 7.1: 405 Invalid Token Index Number; D-34 step 4',
      text: () => {
        const b = body();
        b.tokenInfo.tokenIndexNumber = 'TIN-?';
        return envelope(b);
      },
    },
    {
      name: 'another mid',
      expected: '407',
      basis: 'section 7.1: 407 Incorrect mid; D-34 step 4 (the receiver knows its merchant id)',
      text: () => {
        const b = body();
        b.mid = `${b.mid}X`;
        return envelope(b);
      },
    },
    {
      name: `a stale requestTimestamp (${Math.round(staleByMs / 60_000)} minutes old)`,
      expected: '400',
      basis: 'section 7.1: 400 BAD_REQUEST; D-35 (more than maxClockSkewMs from the clock)',
      text: () => envelope(body(), { requestTimestamp: String(Math.trunc(now() - staleByMs)) }),
    },
    { name: 'replay: first delivery', expected: '00', basis: 'section 7.1: 00 SUCCESS', text: () => replayed },
    {
      name: 'replay: the same notification again',
      expected: '406',
      basis: 'section 7.1: 406 Invalid request id; D-35 (the same requestId)',
      text: () => replayed,
    },
    {
      name: 'replay: the same signature with a new requestId',
      expected: '406',
      basis: 'section 7.1: 406 Invalid request id; D-35 (the same signature: the head is not signed)',
      text: () => sameSignature,
    },
    {
      name: 'a body that is not JSON',
      expected: '400',
      basis: 'section 7.1: 400 BAD_REQUEST; D-34 step 1',
      text: async () => 'this is not a JSON notification',
    },
  );

  const cases: WebhookSuiteCase[] = [];
  for (const [i, plan] of plans.entries()) {
    let reply: PostNotificationResult;
    try {
      reply = await postNotification({
        url,
        text: await plan.text(),
        timeoutMs: options.timeoutMs,
        fetch: options.fetch,
      });
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      // An address that cannot be reached at all is the caller's mistake, not a verdict on the receiver.
      if (i === 0 && !(error instanceof GatewayNonJsonError)) throw error;
      const message = error.message.replace(/^notifyTokenStatus: /, '');
      cases.push({
        ...describe(plan),
        passed: false,
        issues: [{ in: 'body', pointer: '', rule: 'delivery', message: `No usable reply: ${message}` }],
      });
      continue;
    }
    const code = shownCode(reply.code);
    const issues = [...reply.issues];
    if (reply.code !== plan.expected) {
      issues.push({
        in: 'body',
        pointer: '/body/resultInfo/resultCode',
        rule: 'replyCode',
        message: `Expected ${plan.expected} (${MESSAGE.get(plan.expected)}; ${plan.basis}), got ${code ?? (reply.code === undefined ? 'no code' : 'a value that is not a code')}.`,
      });
    }
    cases.push({
      ...describe(plan),
      passed: issues.length === 0,
      httpStatus: reply.httpStatus,
      ...(code ? { code } : {}),
      issues,
    });
  }
  const passed = cases.filter((c) => c.passed).length;
  return { cases, passed, failed: cases.length - passed };
}

const describe = (plan: Plan) => ({ name: plan.name, expected: plan.expected, basis: plan.basis });

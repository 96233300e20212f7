// Verify's own receiver of token status notifications: a node:http server on 127.0.0.1 at a free
// port, that reads each notification within bounds (64 KiB, a few seconds), answers `00` in the
// merchant's reply envelope, and checks it: the head signature (the CHECKSUM of the body's exact
// text under the merchant key), the contract's schema, the merchant id, that the token is one verify
// made, and that the status change is one the state table allows (D-42; a repeated status is a
// duplicate, allowed). The state phase asks it for a token's notifications and waits for one, bounded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readBody } from '../http/readBody.js';
import { memberText } from '../json/member.js';
import { parseBody } from '../proxy/check.js';
import { verifySignatureSync } from '../signing/checksumNode.js';
import { validate } from '../validation/index.js';
import { replyFor } from '../webhook/reply.js';
import type { Coverage } from './coverage.js';
import { isJsonObject as isObject } from './schema.js';
import type { Target } from './types.js';

/** The largest notification read (bytes), and how long one may take to arrive whole (ms). */
export const NOTIFICATION_MAX_BYTES = 64 * 1024;
export const NOTIFICATION_READ_MS = 5_000;
/** The most notifications kept for the checks; past it they are answered and counted only. */
const MAX_KEPT = 2_000;

/** The token status changes the state table allows (D-42); FAILED and DEAD are final. */
export const TOKEN_TRANSITIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  INIT: ['ACTIVE', 'FAILED'],
  ACTIVE: ['SUSPENDED', 'DEAD'],
  SUSPENDED: ['ACTIVE', 'DEAD'],
  FAILED: [],
  DEAD: [],
});

/** A rule a notification broke; never a value of the notification. */
export interface NotificationProblem {
  rule: 'notificationSignature' | 'notificationSchema' | 'notificationMid' | 'notificationToken' | 'tokenTransition';
  message: string;
  pointer?: string | undefined;
}

/** One notification as received. The token is kept to route it, never printed. */
export interface ReceivedNotification {
  token?: string | undefined;
  status?: string | undefined;
  problems: NotificationProblem[];
}

/** What verify knows of a token it made: its last status, and its notifications not yet taken. */
interface TokenRecord {
  last: string | undefined;
  received: ReceivedNotification[];
  taken: number;
}

const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), value);

/** The problems of a notification's text that do not depend on what verify made: JSON, signature, schema, mid. */
export function notificationProblems(
  target: Target,
  text: string,
): { problems: NotificationProblem[]; value?: unknown } {
  const parsed = parseBody(text);
  if (!parsed.ok)
    return {
      problems: [
        { rule: 'notificationSchema', message: `The notification is not JSON: ${parsed.message}.`, pointer: '' },
      ],
    };
  const problems: NotificationProblem[] = [];
  const signature = at(parsed.value, 'head', 'signature');
  const body = memberText(text, 'body');
  let signed = false;
  try {
    signed = body !== undefined && verifySignatureSync(body, target.key, signature);
  } catch {
    signed = false;
  }
  if (!signed)
    problems.push({
      rule: 'notificationSignature',
      message: 'The head signature is not the CHECKSUM of the body under the merchant key.',
      pointer: '/head/signature',
    });
  const verdict = validate('notifyTokenStatus', 'request', parsed.value);
  if (!verdict.valid) {
    const first = verdict.errors[0];
    problems.push({
      rule: 'notificationSchema',
      message: `The notification breaks the contract (${verdict.errors.length} problem${verdict.errors.length === 1 ? '' : 's'}${first ? `; first: ${first.rule} at ${first.pointer || '/'}` : ''}).`,
      pointer: first?.pointer,
    });
  }
  const mid = at(parsed.value, 'body', 'mid');
  if (mid !== target.mid)
    problems.push({ rule: 'notificationMid', message: "body.mid is not the merchant's id.", pointer: '/body/mid' });
  return { problems, value: parsed.value };
}

/** Whether the state table allows a token to go from `from` to `to` (the same status again is a duplicate). */
export const transitionAllowed = (from: string, to: string): boolean =>
  from === to || (TOKEN_TRANSITIONS[from] ?? []).includes(to);

export class NotificationReceiver {
  private readonly tokens = new Map<string, TokenRecord>();
  /** Notifications of tokens not (yet) known to verify: a tokenize's notification may arrive before its answer. */
  private readonly unknown = new Map<string, ReceivedNotification[]>();
  /** Notifications with no token to route them by (unreadable ones). */
  private readonly unrouted: ReceivedNotification[] = [];
  private readonly waiters = new Set<() => void>();
  private kept = 0;

  private constructor(
    private readonly target: Target,
    private readonly coverage: Coverage,
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts a receiver on 127.0.0.1 at a free port. */
  static async start(target: Target, coverage: Coverage): Promise<NotificationReceiver> {
    let receiver: NotificationReceiver | undefined;
    const server = createServer((req, res) => receiver?.handle(req, res));
    server.requestTimeout = NOTIFICATION_READ_MS;
    server.headersTimeout = NOTIFICATION_READ_MS;
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    const port = address !== null && typeof address === 'object' ? address.port : 0;
    receiver = new NotificationReceiver(target, coverage, server, `http://127.0.0.1:${port}/verify/token-status`);
    return receiver;
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    readBody(req, NOTIFICATION_MAX_BYTES, (bytes, problem) => {
      this.coverage.notifications += 1;
      if (!bytes) {
        if (problem === 'too-large')
          this.keep(undefined, {
            problems: [
              {
                rule: 'notificationSchema',
                message: `The notification is larger than ${NOTIFICATION_MAX_BYTES} bytes.`,
                pointer: '',
              },
            ],
          });
        res.writeHead(problem === 'too-large' ? 413 : 400, { connection: 'close' }).end();
        return;
      }
      this.receive(bytes.toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(replyFor('00', Date.now())));
    });
  }

  /** Checks one notification's text and files it under its token. */
  private receive(text: string): void {
    const { problems, value } = notificationProblems(this.target, text);
    const token = at(value, 'body', 'tokenInfo', 'tokenIndexNumber');
    const status = at(value, 'body', 'tokenInfo', 'tokenStatus');
    const received: ReceivedNotification = { problems, ...(typeof status === 'string' ? { status } : {}) };
    this.keep(typeof token === 'string' && token !== '' ? token : undefined, received);
  }

  private keep(token: string | undefined, received: ReceivedNotification): void {
    if (this.kept >= MAX_KEPT) return;
    this.kept += 1;
    if (token === undefined) this.unrouted.push(received);
    else {
      received.token = token;
      const record = this.tokens.get(token);
      if (record) this.file(record, received);
      else this.unknown.set(token, [...(this.unknown.get(token) ?? []), received]);
    }
    for (const wake of this.waiters) wake();
  }

  /** Files a notification under a token verify made, checking its status change against the last one. */
  private file(record: TokenRecord, received: ReceivedNotification): void {
    const { status } = received;
    if (status !== undefined && record.last !== undefined && !transitionAllowed(record.last, status))
      received.problems.push({
        rule: 'tokenTransition',
        message: `A notification moves the token from ${record.last} to ${status}; the state table allows ${record.last} -> ${
          (TOKEN_TRANSITIONS[record.last] ?? []).join(' or ') || 'nothing (it is final)'
        } (or ${record.last} again).`,
        pointer: '/body/tokenInfo/tokenStatus',
      });
    if (status !== undefined && status in TOKEN_TRANSITIONS) record.last = status;
    record.received.push(received);
  }

  /** A token verify made, with the status its tokenize answer gave; notifications already received for it are checked now. */
  track(token: string, status: string): void {
    if (this.tokens.has(token)) return;
    const record: TokenRecord = { last: status, received: [], taken: 0 };
    this.tokens.set(token, record);
    for (const received of this.unknown.get(token) ?? []) this.file(record, received);
    this.unknown.delete(token);
  }

  /** The token's notifications received since the last time they were taken. */
  take(token: string): ReceivedNotification[] {
    const record = this.tokens.get(token);
    if (!record) return [];
    const fresh = record.received.slice(record.taken);
    record.taken = record.received.length;
    return fresh;
  }

  /** Waits (at most `ms`) until a notification of the token, not yet taken, says `status`; whether one came. */
  async waitFor(token: string, status: (s: string) => boolean, ms: number): Promise<boolean> {
    const arrived = () =>
      (this.tokens.get(token)?.received ?? [])
        .slice(this.tokens.get(token)?.taken ?? 0)
        .some((r) => r.status !== undefined && status(r.status));
    if (arrived()) return true;
    let wake: () => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(arrived()), ms);
        wake = () => {
          if (arrived()) resolve(true);
        };
        this.waiters.add(wake);
      });
    } finally {
      clearTimeout(timer);
      this.waiters.delete(wake);
    }
  }

  /** Notifications of no token verify made (or none at all), taken once: each is a finding of the phase. */
  takeStrays(): ReceivedNotification[] {
    const ofOthers = [...this.unknown.values()].flat();
    for (const received of ofOthers)
      received.problems.push({
        rule: 'notificationToken',
        message: 'The notification is of a token verify did not make.',
        pointer: '/body/tokenInfo/tokenIndexNumber',
      });
    const strays = [...this.unrouted, ...ofOthers];
    this.unrouted.length = 0;
    this.unknown.clear();
    return strays;
  }
}

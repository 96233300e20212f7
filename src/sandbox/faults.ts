// Faults a test arms to rehearse what goes wrong between the merchant and the service: an answer
// lost after the operation was carried out, a slow answer, a connection reset, an HTTP error in
// front of the service, and webhooks delivered twice or out of order (docs/decisions.md, D-59 to D-61).
// This module keeps the armed faults and hands out one per request; the operations and the
// webhooks apply them. Nothing here knows HTTP.
import { pointerSegment } from '../json/pointer.js';
import { type SandboxOperation, SERVED_OPERATIONS } from './operationIndex.js';
import { isUntrustedObject } from './untrusted.js';

/** Faults of an operation's answer. */
export const ANSWER_FAULTS = ['drop-answer', 'delay', 'reset', 'http-500', 'http-503'] as const;
/** Faults of token status notifications (operationId `notifyTokenStatus`). */
export const WEBHOOK_FAULTS = ['duplicate-webhook', 'reorder-webhooks'] as const;

export type AnswerFault = (typeof ANSWER_FAULTS)[number];
export type WebhookFault = (typeof WEBHOOK_FAULTS)[number];

/** The bounds of what may be armed. */
export const FAULT_LIMITS = Object.freeze({ maxArmed: 100, maxCount: 1_000, maxDelayMs: 60_000 });

/** What a test arms: a fault of the next `count` requests of an operation (default 1), or of the next notifications. */
export type FaultSpec =
  | { operationId: SandboxOperation; fault: Exclude<AnswerFault, 'delay'>; count?: number | undefined }
  | { operationId: SandboxOperation; fault: 'delay'; delayMs: number; count?: number | undefined }
  | { operationId: 'notifyTokenStatus'; fault: WebhookFault; count?: number | undefined };

/** An armed fault and how many more requests (or notifications) it applies to. */
export type ArmedFault = FaultSpec & { id: string; remaining: number; armedAt: string };

/** The fault one request of an operation meets. */
export type TakenAnswerFault = { fault: Exclude<AnswerFault, 'delay'> } | { fault: 'delay'; delayMs: number };

export type ArmResult = { ok: true; armed: ArmedFault } | { ok: false; message: string; pointer?: string };

export interface Faults {
  /** Arms a fault from a control body or a test's spec (checked: callers in JavaScript pass anything). */
  arm(input: unknown): ArmResult;
  /** The armed faults, oldest first. */
  list(): ArmedFault[];
  /** Disarms every fault; answers how many there were. */
  clear(): number;
  /** The fault the next request of an operation meets, if one is armed (its count goes down by one). */
  takeAnswerFault(operationId: SandboxOperation): TakenAnswerFault | undefined;
  /** The fault the next notification meets, if one is armed (passing over `except`: a notification is already held back). */
  takeWebhookFault(except?: WebhookFault): WebhookFault | undefined;
}

const FIELDS = ['operationId', 'fault', 'count', 'delayMs'];
const OPERATION_IDS: readonly string[] = SERVED_OPERATIONS.map((o) => o.operationId);
const isOperation = (value: unknown): value is SandboxOperation =>
  typeof value === 'string' && OPERATION_IDS.includes(value);
const isAnswerFault = (value: unknown): value is AnswerFault => ANSWER_FAULTS.some((f) => f === value);
const isWebhookFault = (value: unknown): value is WebhookFault => WEBHOOK_FAULTS.some((f) => f === value);
const wholeIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;

/** The spec a body describes, or why it does not describe one. */
export function readFaultSpec(input: unknown): FaultSpec | { message: string; pointer?: string } {
  if (!isUntrustedObject(input) || Array.isArray(input))
    return { message: 'The body must be a JSON object {"operationId", "fault", "count"?, "delayMs"?}.' };
  const unknown = Object.keys(input).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined)
    return { message: `Unknown field: the fields are ${FIELDS.join(', ')}.`, pointer: `/${pointerSegment(unknown)}` };
  const { operationId, fault, count, delayMs } = input;
  if (count !== undefined && !wholeIn(count, 1, FAULT_LIMITS.maxCount))
    return { message: `count must be a whole number from 1 to ${FAULT_LIMITS.maxCount}.`, pointer: '/count' };
  if (operationId === 'notifyTokenStatus') {
    if (!isWebhookFault(fault))
      return { message: `The faults of notifyTokenStatus are ${WEBHOOK_FAULTS.join(', ')}.`, pointer: '/fault' };
    if (delayMs !== undefined) return { message: 'delayMs belongs to the fault delay only.', pointer: '/delayMs' };
    return { operationId, fault, ...(count === undefined ? {} : { count }) };
  }
  if (!isOperation(operationId))
    return {
      message: `operationId must be one of ${[...OPERATION_IDS, 'notifyTokenStatus'].join(', ')}.`,
      pointer: '/operationId',
    };
  if (!isAnswerFault(fault))
    return { message: `The faults of an operation are ${ANSWER_FAULTS.join(', ')}.`, pointer: '/fault' };
  if (fault === 'delay') {
    if (!wholeIn(delayMs, 0, FAULT_LIMITS.maxDelayMs))
      return {
        message: `delay needs delayMs, a whole number of milliseconds from 0 to ${FAULT_LIMITS.maxDelayMs}.`,
        pointer: '/delayMs',
      };
    return { operationId, fault, delayMs, ...(count === undefined ? {} : { count }) };
  }
  if (delayMs !== undefined) return { message: 'delayMs belongs to the fault delay only.', pointer: '/delayMs' };
  return { operationId, fault, ...(count === undefined ? {} : { count }) };
}

export function createFaults(now: () => number): Faults {
  let armed: ArmedFault[] = [];
  let sequence = 0;

  /** The oldest armed fault of `operationId` (other than `except`), its count taken down by one (gone at zero). */
  function take(operationId: string, except?: string): ArmedFault | undefined {
    const index = armed.findIndex((f) => f.operationId === operationId && f.fault !== except);
    const found = armed[index];
    if (!found) return undefined;
    found.remaining--;
    if (found.remaining === 0) armed.splice(index, 1);
    return found;
  }

  return {
    arm(input) {
      const spec = readFaultSpec(input);
      if (!('operationId' in spec)) return { ok: false, ...spec };
      if (armed.length >= FAULT_LIMITS.maxArmed)
        return {
          ok: false,
          message: `At most ${FAULT_LIMITS.maxArmed} faults are armed at once: DELETE /sandbox/faults disarms them.`,
        };
      const fault: ArmedFault = {
        ...spec,
        id: `FLT${++sequence}`,
        remaining: spec.count ?? 1,
        armedAt: new Date(now()).toISOString(),
      };
      armed.push(fault);
      return { ok: true, armed: { ...fault } };
    },
    list: () => armed.map((f) => ({ ...f })),
    clear() {
      const n = armed.length;
      armed = [];
      return n;
    },
    takeAnswerFault(operationId) {
      const found = take(operationId);
      if (!found || found.operationId === 'notifyTokenStatus') return undefined;
      return found.fault === 'delay' ? { fault: 'delay', delayMs: found.delayMs } : { fault: found.fault };
    },
    takeWebhookFault(except) {
      const found = take('notifyTokenStatus', except);
      return found && found.operationId === 'notifyTokenStatus' ? found.fault : undefined;
    },
  };
}

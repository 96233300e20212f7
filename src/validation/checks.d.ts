import type { ValidationIssue, ValidationOptions } from './validate.js';

export interface NamedCheck {
  /** The rule, in words. */
  rule: string;
  /** Where the interface description states it. */
  source: string;
  run(payload: unknown, context: ValidationOptions): ValidationIssue[];
}

/** The rules JSON Schema cannot say, by name. */
export declare const namedChecks: Readonly<Record<'queryMatchesBody' | 'tokenizeMidMatchesPath' | 'firstPaymentWithinRenewalAmount' | 'expiryAfterStart', NamedCheck>>;

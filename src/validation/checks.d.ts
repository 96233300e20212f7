import type { ValidationIssue, ValidationOptions } from './validate.js';

export interface NamedCheck {
  /** The rule, in words. */
  rule: string;
  /** Where the interface description states it. */
  source: string;
  run(payload: unknown, context: ValidationOptions, operation: { parameters: readonly { name: string; in: string; required: boolean }[] }): ValidationIssue[];
}

/** The rules JSON Schema cannot say, by name. */
export declare const namedChecks: Readonly<Record<'requiredParameters' | 'queryMatchesBody' | 'tokenizeMidMatchesPath' | 'firstPaymentWithinRenewalAmount' | 'expiryAfterStart', NamedCheck>>;

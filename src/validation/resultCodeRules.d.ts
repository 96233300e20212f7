export interface CodeRule {
  pointer?: RegExp;
  rule?: string[];
  code: string;
  message?: string;
}
/** Per operation, which result code answers a request that breaks a rule (first match wins). */
export declare const resultCodeRules: Readonly<Record<string, CodeRule[]>>;
/** The result code for one issue of a request, or undefined when the description gives none. */
export declare function resultCodeFor(operationId: string, issue: { pointer: string; rule: string; resultCode?: string }): { code: string; message?: string } | undefined;

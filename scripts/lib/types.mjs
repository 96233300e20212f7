// TypeScript types of the contract, by openapi-typescript, with the contract's if/then/else rules
// turned into the unions they are equivalent to first (conditionalTypes.mjs, DECISIONS.md D-83).
import openapiTS, { astToString, UNDEFINED } from 'openapi-typescript';
import { ABSENT, withTypedConditionals } from './conditionalTypes.mjs';

/** @param {any} doc @param {string} header */
export async function buildTypes(doc, header) {
  // `emptyObjectsUnknown`: free-form maps (gatewayInfo, FormDetail.content) must accept entries.
  // `defaultNonNullable: false`: a field with a default (osType, subscriptionFrequency) stays
  // optional for the sender.
  // `transform`: a property a conditional's branch forbids is `?: undefined`.
  const ast = await openapiTS(withTypedConditionals(doc), {
    emptyObjectsUnknown: true,
    defaultNonNullable: false,
    transform: (schema) =>
      schema && typeof schema === 'object' && ABSENT in schema ? { schema: UNDEFINED, questionToken: true } : undefined,
  });
  return { 'openapi.d.ts': `// ${header}\n${astToString(ast)}` };
}

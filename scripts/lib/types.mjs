// TypeScript types of the contract, by openapi-typescript.
import openapiTS, { astToString } from 'openapi-typescript';

/** @param {any} doc @param {string} header */
export async function buildTypes(doc, header) {
  // `emptyObjectsUnknown`: free-form maps (gatewayInfo, FormDetail.content) must accept entries.
  // `defaultNonNullable: false`: a field with a default (osType, subscriptionFrequency) stays
  // optional for the sender.
  const ast = await openapiTS(structuredClone(doc), { emptyObjectsUnknown: true, defaultNonNullable: false });
  return { 'openapi.d.ts': `// ${header}\n${astToString(ast)}` };
}

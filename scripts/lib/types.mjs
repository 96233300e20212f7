// TypeScript types of the contract, by openapi-typescript.
import openapiTS, { astToString } from 'openapi-typescript';

/** @param {any} doc @param {string} header */
export async function buildTypes(doc, header) {
  // `emptyObjectsUnknown`: free-form maps (gatewayInfo, FormDetail.content) must accept entries.
  const ast = await openapiTS(structuredClone(doc), { emptyObjectsUnknown: true });
  return { 'openapi.d.ts': `// ${header}\n${astToString(ast)}` };
}

// The JSON Schema keywords whose values hold schemas: what the generator walks to strip a schema
// of annotations (validators.mjs) or to keep its wording (contractModules.mjs).

/** Keywords whose value is a map of names to schemas (the names are data, never annotations). */
export const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is a schema or a list of schemas. */
export const SUBSCHEMAS = new Set([
  'items',
  'prefixItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
]);

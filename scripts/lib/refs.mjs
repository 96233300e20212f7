// Small helpers for the bundled document's local references.

/** `#/components/schemas/Money` -> `Money` */
export function refName(/** @type {string} */ ref) {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** Follows `$ref` until a schema object. @param {any} doc @param {any} schema */
export function deref(doc, schema) {
  let current = schema;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce(
        (/** @type {any} */ node, /** @type {string} */ key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        doc,
      );
  }
  return current;
}

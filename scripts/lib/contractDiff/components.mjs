// The Components Object's schemas by name (D-45, D-79): merchants' code names the generated types
// `components['schemas'][name]`, so a name removed is breaking, a name added documentation, and a
// rename that keeps the old name as an alias of the new one notable. What a schema holds is compared
// where the operations use it (`schema.mjs`).

import { escapeToken, pointerOf, refPointer, sameJson, segmentsOf } from '../pointers.mjs';
import { ANNOTATION_KEYWORDS } from '../schemaRules.mjs';

/** @typedef {import('../resultCodeDiff.mjs').Change} Change */

/** The component schema a `$ref` names (`#/components/schemas/X` -> `X`), or undefined. @param {unknown} ref */
function componentNamed(ref) {
  const pointer = refPointer(ref);
  const keys = pointer === null ? [] : segmentsOf(pointer);
  return keys.length === 3 && keys[0] === 'components' && keys[1] === 'schemas' ? keys[2] : undefined;
}

/**
 * The component a schema is an alias of: a `$ref` to another component schema with nothing beside
 * it but annotations (title, description, `deprecated`, extensions), or undefined (D-79).
 * @param {unknown} schema
 */
function aliasOf(schema) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const keys = Object.keys(schema);
  if (!keys.every((k) => k === '$ref' || k === 'deprecated' || ANNOTATION_KEYWORDS.has(k) || k.startsWith('x-')))
    return undefined;
  return componentNamed(/** @type {any} */ (schema).$ref);
}

/** Where each component schema is referenced: its name -> the pointers of the `$ref`s to it. @param {unknown} doc */
function schemaReferences(doc) {
  /** @type {Map<string, Set<string>>} */
  const found = new Map();
  /** @param {unknown} node @param {string} pointer */
  const visit = (node, pointer) => {
    if (!node || typeof node !== 'object') return;
    const name = componentNamed(/** @type {any} */ (node).$ref);
    if (name !== undefined) {
      const at = found.get(name) ?? new Set();
      at.add(pointer);
      found.set(name, at);
    }
    for (const [key, value] of Object.entries(node)) visit(value, `${pointer}/${escapeToken(key)}`);
  };
  visit(doc, '');
  return found;
}

/**
 * Component schemas removed (merchants' code names the generated types) or added (D-45), and
 * renamed with the old name kept as an alias (D-79): a component that becomes a `$ref` to another
 * one, the same schema (equal to what the old name held, or a new component every `$ref` to the old
 * name moved to). Both generated types still compile, so the rename is notable (the old name is
 * deprecated); changes of the schema itself are reported where the operations use it. A name made
 * an alias of a different schema gives code that names it another type: breaking.
 * @param {any} before @param {any} after @returns {Change[]}
 */
export function componentChanges(before, after) {
  const schemasBefore = before?.components?.schemas ?? {};
  const schemasAfter = after?.components?.schemas ?? {};
  const was = Object.keys(schemasBefore);
  const is = Object.keys(schemasAfter);
  /** @type {Change[]} */
  const changes = [];
  /** @type {{ before: Map<string, Set<string>>, after: Map<string, Set<string>> } | undefined} */
  let refs;
  /** Whether `to` (of the new contract) is `from` (of the released one) under another name. @param {string} from @param {string} to */
  const sameSchema = (from, to) => {
    if (sameJson(schemasBefore[from], schemasAfter[to])) return true;
    if (was.includes(to)) return false;
    refs ??= { before: schemaReferences(before), after: schemaReferences(after) };
    const moved = refs.after.get(to);
    const old = [...(refs.before.get(from) ?? [])].filter(
      (p) => !p.startsWith(pointerOf(['components', 'schemas', from])),
    );
    return old.length > 0 && old.every((p) => moved?.has(p));
  };
  /** @type {Set<string>} */
  const renamedTo = new Set();
  for (const name of was.filter((n) => is.includes(n))) {
    const target = aliasOf(schemasAfter[name]);
    if (
      target === undefined ||
      target === name ||
      aliasOf(schemasBefore[name]) !== undefined ||
      !Object.hasOwn(schemasAfter, target)
    )
      continue;
    if (sameSchema(name, target)) {
      renamedTo.add(target);
      const deprecated = schemasAfter[name].deprecated === true ? ', deprecated,' : '';
      changes.push({
        operation: '',
        direction: 'contract',
        location: pointerOf(['components', 'schemas', target]),
        kind: 'component-renamed',
        level: 'notable',
        message: `component schema ${name} renamed ${target}; ${name} stays${deprecated} as an alias of it: code that names either generated type compiles`,
      });
    } else {
      changes.push({
        operation: '',
        direction: 'contract',
        location: pointerOf(['components', 'schemas', name]),
        kind: 'component-changed',
        level: 'breaking',
        message: `component schema ${name} became an alias of ${target}, another schema: code that names components['schemas']['${name}'] gets another type`,
      });
    }
  }
  const added = is.filter((n) => !was.includes(n));
  for (const name of was.filter((n) => !is.includes(n))) {
    const renamed = added.find((n) => sameSchema(name, n));
    const hint =
      renamed === undefined
        ? ''
        : ` (renamed ${renamed}? keep ${name} as a deprecated alias of it until the next major version)`;
    changes.push({
      operation: '',
      direction: 'contract',
      location: pointerOf(['components', 'schemas', name]),
      kind: 'component-removed',
      level: 'breaking',
      message: `component schema ${name} removed: code that names the generated type components['schemas']['${name}'] no longer compiles${hint}`,
    });
  }
  for (const name of added.filter((n) => !renamedTo.has(n))) {
    changes.push({
      operation: '',
      direction: 'contract',
      location: pointerOf(['components', 'schemas', name]),
      kind: 'component-added',
      level: 'patch',
      message: `new component schema ${name}`,
    });
  }
  return changes;
}

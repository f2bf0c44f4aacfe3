import type { ModelInfo } from '../../runtime/rest/schema.js';
import type { Dialect } from '../../runtime/db/connect.js';

/**
 * Sampling by kind for the registry-driven suites on a second database. The generic handlers, rules and
 * permission checks are the same code for every model; what can differ from one database to the other is the
 * SQL that a model's shape produces. Two models are of one kind when their shapes give the same SQL
 * constructs: the field kinds that need their own SQL (generic relations, many-to-many, JSON, child lists,
 * object-type lists, networks, files, and values the two drivers return differently), a tree, read-only, and validators or hooks of their own that read the
 * database. SQLite runs a suite on every model; PostgreSQL on the first model of each kind, so that a new model
 * of a known kind costs one database's run, and a new kind both.
 */
const OWN_SQL = new Set([
  'generic_fk',
  'm2m',
  'json',
  'children',
  'list',
  'object_types',
  'ip_network',
  'ip_interface',
  'image',
  // Values the drivers return differently (numeric text, Date objects, 0/1).
  'decimal',
  'date',
  'datetime',
  'boolean',
]);

export function modelKind(model: ModelInfo): string {
  const kinds = [...new Set(model.spec.fields.map((f) => f.kind).filter((k) => OWN_SQL.has(k)))].sort();
  const ownRules =
    model.spec.validators.length > 0 ||
    Object.keys(model.spec.hooks).length > 0 ||
    model.spec.rules.some((rule) => rule.kind === 'validator');
  return JSON.stringify({ kinds, tree: Boolean(model.spec.tree), readOnly: Boolean(model.spec.readOnly), ownRules });
}

/**
 * The models a registry-driven suite runs on the dialect: all on SQLite, elsewhere the first of each kind and
 * those the suite treats specially (`always`, by label).
 */
export function sampledFor(
  dialect: Dialect,
  models: readonly ModelInfo[],
  always: readonly string[] = [],
): ModelInfo[] {
  if (dialect === 'sqlite') return [...models];
  const seen = new Set<string>();
  return models.filter((model) => {
    if (always.includes(model.label)) return true;
    const kind = modelKind(model);
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
}

import type { CountSpec, FieldSpec, FilterSpec, Migration, ModelSpec, Registry, Role } from '../spec.js';

/** A model spec with the lookups the runtime needs, computed once at start-up. */
export interface ModelInfo {
  spec: ModelSpec;
  label: string;
  table: string;
  fields: ReadonlyMap<string, FieldSpec>;
  filters: ReadonlyMap<string, FilterSpec>;
  counts: ReadonlyMap<string, CountSpec>;
  /** Fields a client may write. */
  writable: readonly FieldSpec[];
  hasTags: boolean;
  hasCustomFields: boolean;
  hasTimestamps: boolean;
  /** `/<app>/<path>/` relative to the API root, or null without an endpoint. */
  listPath: string | null;
  /** Every key the full representation has, as a set. */
  outputKeys: ReadonlySet<string>;
}

/** The registry as the runtime reads it. */
export class Schema {
  readonly models: ReadonlyMap<string, ModelInfo>;
  private readonly typeIds: ReadonlyMap<string, number>;
  private readonly typeLabels: ReadonlyMap<number, string>;

  constructor(readonly registry: Registry) {
    const models = new Map<string, ModelInfo>();
    for (const spec of Object.values(registry.models)) models.set(spec.label, describe(spec));
    this.models = models;
    this.typeIds = objectTypeIds(registry);
    this.typeLabels = new Map([...this.typeIds].map(([label, id]) => [id, label]));
  }

  /** The id of a model's object type (NetBox's content type id), or undefined for an unknown label. */
  objectTypeId(label: string): number | undefined {
    return this.typeIds.get(label);
  }

  /** The model label of an object type id, or undefined. */
  objectTypeLabel(id: number): string | undefined {
    return this.typeLabels.get(id);
  }

  /** The model with this label; throws when there is none (a bug, not a client error). */
  model(label: string): ModelInfo {
    const found = this.models.get(label);
    if (!found) throw new Error(`unknown model ${label}`);
    return found;
  }

  /** The model that plays a role (tags, users, tokens…), if any. */
  withRole(role: Role): ModelInfo | undefined {
    for (const model of this.models.values()) if (model.spec.roles.includes(role)) return model;
    return undefined;
  }

  /** Models that have an API endpoint, sorted by label. */
  endpoints(): ModelInfo[] {
    return [...this.models.values()].filter((m) => m.listPath).sort((a, b) => a.label.localeCompare(b.label));
  }
}

/**
 * Object type ids number the models in the order their tables were first created by the migrations, which
 * never change once written: an id stays the same across versions, and a new model takes the next one.
 * The models of the n-th generated plugin (by name, enabled or not) are numbered from n × 1000 + 1 the
 * same way, so that neither a new core model nor enabling another plugin renumbers them.
 */
function objectTypeIds(registry: Registry): Map<string, number> {
  const byTable = new Map(Object.values(registry.models).map((spec) => [spec.table, spec.label]));
  const ids = new Map<string, number>();
  const number = (migrations: readonly Migration[], base: number): void => {
    let next = base + 1;
    for (const migration of migrations) {
      for (const op of migration.ops) {
        const label = op.op === 'createTable' ? byTable.get(op.table) : undefined;
        if (label && !ids.has(label)) ids.set(label, next++);
      }
    }
  };
  number(
    registry.migrations.filter((m) => !m.name.startsWith('plugins/')),
    0,
  );
  registry.plugins.forEach((plugin, index) => number(plugin.migrations, (index + 1) * 1000));
  return ids;
}

function describe(spec: ModelSpec): ModelInfo {
  return {
    spec,
    label: spec.label,
    table: spec.table,
    fields: new Map(spec.fields.map((f) => [f.name, f])),
    filters: new Map(spec.filters.map((f) => [f.name, f])),
    counts: new Map(spec.counts.map((c) => [c.name, c])),
    writable: spec.fields.filter((f) => !f.readOnly && !f.hidden),
    hasTags: spec.features.includes('tags'),
    hasCustomFields: spec.features.includes('custom_fields'),
    hasTimestamps: spec.features.includes('change_logging'),
    listPath: spec.path ? `/${spec.plugin ? `plugins/${spec.plugin.baseUrl}` : spec.app}/${spec.path}/` : null,
    outputKeys: new Set(spec.output),
  };
}

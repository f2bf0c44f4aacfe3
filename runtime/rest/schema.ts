import type { CountSpec, FieldSpec, FilterSpec, ModelSpec, Registry, Role } from '../spec.js';

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

  constructor(readonly registry: Registry) {
    const models = new Map<string, ModelInfo>();
    for (const spec of Object.values(registry.models)) models.set(spec.label, describe(spec));
    this.models = models;
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
    listPath: spec.path ? `/${spec.app}/${spec.path}/` : null,
    outputKeys: new Set(spec.output),
  };
}

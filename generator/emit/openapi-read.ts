import type { FieldSpec, ForeignKeyField, ModelSpec } from '../../runtime/spec.js';
import { toPascalCase } from '../names.js';
import { kindOf } from '../../runtime/kinds/index.js';
import { closedObject, described, schemaRef, withNull, type Json } from './openapi-json.js';

/**
 * Read representations, mirroring runtime/rest/plan.ts and render.ts key by key. A key list is rendered
 * either at the top of a response (`top`: the full, brief and field-selected forms, and the tags of an
 * object) or nested inside another object (`nested`: FK values), where the plan drops `tags`, related lists,
 * generic relations and counts whose CountSpec.nested is `omit`, and — past its nesting limit — drops FKs,
 * which is why FK keys of nested schemas are not required.
 */
export type Depth = 'top' | 'nested';

/** Names of the component schemas of one model. */
export interface ModelSchemaNames {
  full: string;
  brief: string;
  nested: string;
  selected: string;
  request: string;
  updateRequest: string;
  patched: string;
  paginated: string;
}

/** What the schema builders share: the models and the component schemas emitted so far. */
export interface SchemaContext {
  models: ReadonlyMap<string, ModelSpec>;
  /** Model label → base name of its schemas (the class name; app-prefixed when two apps share one). */
  baseNames: ReadonlyMap<string, string>;
  schemas: Map<string, Json>;
}

/** Base schema names: className, or `<App><ClassName>` for class names that more than one model uses. */
export function assignBaseNames(models: readonly ModelSpec[]): Map<string, string> {
  const uses = new Map<string, number>();
  for (const model of models) uses.set(model.className, (uses.get(model.className) ?? 0) + 1);
  return new Map(
    models.map((m) => [m.label, uses.get(m.className)! > 1 ? `${toPascalCase(m.app)}${m.className}` : m.className]),
  );
}

/** The component schema names of a model (drf-spectacular's naming). */
export function schemaNames(ctx: SchemaContext, model: ModelSpec): ModelSchemaNames {
  const base = ctx.baseNames.get(model.label)!;
  return {
    full: base,
    brief: `Brief${base}`,
    nested: `Nested${base}`,
    selected: `Selected${base}`,
    request: `${base}Request`,
    updateRequest: `${base}UpdateRequest`,
    patched: `Patched${base}Request`,
    paginated: `Paginated${base}List`,
  };
}

/** Registers a component schema once; the placeholder makes self-references (tree parents) terminate. */
export function ensureSchema(ctx: SchemaContext, name: string, build: () => Json): string {
  if (!ctx.schemas.has(name)) {
    ctx.schemas.set(name, {});
    ctx.schemas.set(name, build());
  }
  return name;
}

/** Registers the read schemas of a model with an endpoint: full, brief, nested, selected and paginated. */
export function addReadSchemas(ctx: SchemaContext, model: ModelSpec): void {
  const names = schemaNames(ctx, model);
  ensureSchema(ctx, names.full, () =>
    representation(ctx, model, model.output, 'top', true, model.description ?? `A ${model.verboseName}.`),
  );
  ensureSchema(ctx, names.brief, () =>
    representation(
      ctx,
      model,
      model.brief,
      'top',
      true,
      `The brief representation of a ${model.verboseName} (\`brief=true\`).`,
    ),
  );
  ensureSchema(ctx, names.nested, () => nestedSchema(ctx, model, model.nested));
  // Responses reference this variant: `fields`, `omit` and `brief` choose which keys are rendered (on
  // reads and writes alike), so any subset of the full representation is a valid body. Nothing is
  // required, but every key keeps its exact type and unknown keys still fail (additionalProperties false).
  // The full schema above is the strict form of a response made without those parameters.
  ensureSchema(ctx, names.selected, () =>
    representation(
      ctx,
      model,
      model.output,
      'top',
      false,
      `A ${model.verboseName} as a response renders it: the keys of ${names.full}, of which \`fields\`, \`omit\` and ` +
        '`brief` may select a subset (without them every key is present).',
    ),
  );
  ensureSchema(ctx, names.paginated, () =>
    closedObject(
      {
        count: {
          type: ['integer', 'null'],
          minimum: 0,
          description: 'Total number of matches; null in cursor mode (`start`).',
        },
        next: { type: ['string', 'null'], format: 'uri', description: 'The next page, or null on the last page.' },
        previous: {
          type: ['string', 'null'],
          format: 'uri',
          description: 'The previous page (always null in cursor mode).',
        },
        results: { type: 'array', items: schemaRef(names.full) },
      },
      ['count', 'next', 'previous', 'results'],
      `A page of ${model.verboseNamePlural}.`,
    ),
  );
}

/** An object schema for `keys` of `model` rendered at `depth`. */
export function representation(
  ctx: SchemaContext,
  model: ModelSpec,
  keys: readonly string[],
  depth: Depth,
  requireKeys: boolean,
  description: string,
): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const key of keys) {
    const property = readProperty(ctx, model, key, depth);
    if (!property) continue;
    properties[key] = property.schema;
    if (requireKeys && property.always) required.push(key);
  }
  return closedObject(properties, required, description);
}

function nestedSchema(ctx: SchemaContext, model: ModelSpec, keys: readonly string[], description?: string): Json {
  return representation(
    ctx,
    model,
    keys,
    'nested',
    true,
    description ?? `A ${model.verboseName} nested in another object.`,
  );
}

/** The schema of an FK's value: the target's nested schema, or one of its own when the field names its keys. */
export function nestedSchemaName(ctx: SchemaContext, owner: ModelSpec, field: ForeignKeyField): string {
  const target = ctx.models.get(field.target)!;
  const names = schemaNames(ctx, target);
  const keys = field.nested ?? target.nested;
  if (keys.join(',') === target.nested.join(',')) {
    return ensureSchema(ctx, names.nested, () => nestedSchema(ctx, target, target.nested));
  }
  const name = `Nested${ctx.baseNames.get(owner.label)!}${toPascalCase(field.name)}`;
  return ensureSchema(ctx, name, () =>
    nestedSchema(ctx, target, keys, `A ${target.verboseName} as nested in ${owner.verboseName} \`${field.name}\`.`),
  );
}

/**
 * Tags are loaded in a batch and rendered with the tag model's nested keys at the top level (fetch.ts
 * loadTags), which differs from a nested FK value only if those keys hold counts or FKs.
 */
function tagItemSchema(ctx: SchemaContext): Json {
  const tagModel = [...ctx.models.values()].find((m) => m.roles.includes('tag'));
  if (!tagModel) return { type: 'array', maxItems: 0 };
  const nested = schemaNames(ctx, tagModel).nested;
  const asTop = representation(
    ctx,
    tagModel,
    tagModel.nested,
    'top',
    true,
    `A ${tagModel.verboseName} nested in another object.`,
  );
  const asNested = nestedSchema(ctx, tagModel, tagModel.nested);
  const name =
    JSON.stringify(asTop) === JSON.stringify(asNested) ? nested : `Assigned${ctx.baseNames.get(tagModel.label)!}`;
  ensureSchema(ctx, name, () => asTop);
  return { type: 'array', items: schemaRef(name) };
}

const HEADER_DESCRIPTIONS: Record<string, string> = {
  id: 'Primary key.',
  url: 'Absolute URL of the object in the API.',
  display_url: 'Absolute URL of the object in the web UI.',
  display: "The object's display text.",
  created: 'When the object was created.',
  last_updated: 'When the object was last changed.',
  _depth: 'Depth in the tree; top-level objects are 0.',
  tags: 'Tags assigned to the object.',
  custom_fields: 'Custom field values by name.',
};

/** One key's schema; `always` is false for keys the plan may leave out; null when it is never rendered. */
function readProperty(
  ctx: SchemaContext,
  model: ModelSpec,
  key: string,
  depth: Depth,
): { schema: Json; always: boolean } | null {
  const field = model.fields.find((f) => f.name === key);
  if (field) {
    if (field.kind === 'fk' && field.column) {
      const value = schemaRef(nestedSchemaName(ctx, model, field));
      return {
        schema: described(field.nullable ? withNull(value) : value, fieldDescription(field)),
        always: depth === 'top',
      };
    }
    // Child lists are loaded in batches for the objects of a page, at the top only.
    if (field.kind === 'children') {
      if (depth === 'nested') return null;
      return { schema: described(readValue(ctx, field), fieldDescription(field)), always: true };
    }
    // Loaded in batches for the objects of a page; related lists and generic relations only at the top.
    if (field.kind === 'm2m' || field.kind === 'generic_fk' || field.kind === 'computed') {
      if (depth === 'nested' && field.kind !== 'computed') return null;
      return {
        schema: described(batchedValue(ctx, model, field), fieldDescription(field)),
        always: field.kind !== 'computed' || !field.excludable,
      };
    }
    if (field.kind === 'alias') {
      const source = model.fields.find((f) => f.name === field.of)!;
      // An alias of an FK renders the related object's id (NetBox's PrimaryKeyRelatedField).
      const value = source.kind === 'fk' ? { type: 'integer' } : readValue(ctx, source);
      return { schema: described(source.nullable ? withNull(value) : value, fieldDescription(field)), always: true };
    }
    if (field.kind === 'constant' || field.kind === 'ip_family' || field.kind === 'derived') {
      return { schema: described(readValue(ctx, field), fieldDescription(field)), always: true };
    }
    // A field without a column renders null unless a present hook fills it in (tokens' plaintext).
    const value = readValue(ctx, field);
    return {
      schema: described(field.nullable || !field.column ? withNull(value) : value, fieldDescription(field)),
      always: true,
    };
  }
  const count = model.counts.find((c) => c.name === key);
  if (count) {
    // A plugin's count says whose it is: the runtime drops it from the document while the plugin is off.
    const schema = { type: 'integer', minimum: 0, ...(count.plugin ? { 'x-plugin': count.plugin } : {}) };
    if (depth === 'top') return { schema: described(schema, count.description), always: true };
    if (count.nested === 'omit') return null;
    return { schema: described(schema, count.description), always: true };
  }
  const description = HEADER_DESCRIPTIONS[key];
  const linked = model.path !== null;
  switch (key) {
    case 'id':
      return model.stringId
        ? { schema: described({ type: 'string', pattern: '^[0-9]+$' }, description), always: true }
        : { schema: described({ type: 'integer', minimum: 0 }, description), always: true };
    case 'url':
    case 'display_url':
      return {
        schema: linked
          ? described({ type: 'string', format: 'uri' }, description)
          : { type: 'null', description: 'Null: the model has no endpoint.' },
        always: true,
      };
    case 'display':
      return { schema: described({ type: 'string' }, description), always: true };
    case 'created':
    case 'last_updated':
      return { schema: described({ type: ['string', 'null'], format: 'date-time' }, description), always: true };
    case '_depth':
      return { schema: described({ type: 'integer', minimum: 0 }, description), always: true };
    case 'tags':
      // Nested objects show tags only when loaded as a list of full objects (many-to-many).
      return { schema: described(tagItemSchema(ctx), description), always: depth === 'top' };
    case 'custom_fields':
      return { schema: described({ type: 'object', additionalProperties: true }, description), always: true };
    default:
      throw new Error(`${model.label} has no key ${key}`);
  }
}

/** Values loaded per page: related lists, generic relations and computed values. */
function batchedValue(ctx: SchemaContext, model: ModelSpec, field: FieldSpec): Json {
  switch (field.kind) {
    case 'm2m': {
      if (field.by) return { type: 'array', items: { type: 'string' } };
      const target = ctx.models.get(field.target)!;
      const keys = field.nested ?? target.nested;
      const name =
        keys.join(',') === target.nested.join(',')
          ? ensureSchema(ctx, schemaNames(ctx, target).nested, () => nestedSchema(ctx, target, target.nested))
          : ensureSchema(ctx, `Nested${ctx.baseNames.get(model.label)!}${toPascalCase(field.name)}`, () =>
              nestedSchema(
                ctx,
                target,
                keys,
                `A ${target.verboseName} as listed in ${model.verboseName} \`${field.name}\`.`,
              ),
            );
      return { type: 'array', items: schemaRef(name) };
    }
    case 'generic_fk': {
      const options = field.targets.map((label) => {
        const target = ctx.models.get(label)!;
        return schemaRef(
          ensureSchema(ctx, schemaNames(ctx, target).nested, () => nestedSchema(ctx, target, target.nested)),
        );
      });
      // anyOf: targets may share a shape (a region and a site group nest alike).
      return { anyOf: [...options, { type: 'null' }] };
    }
    case 'computed':
      return field.schema;
    default:
      return {};
  }
}

/** YAML description and help text of a field, joined. */
export function fieldDescription(field: FieldSpec): string | undefined {
  const parts = [field.description, field.helpText].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** A rendered (non-FK) value, as the kind's `present` returns it; without null. */
function readValue(ctx: SchemaContext, field: FieldSpec): Json {
  return kindOf(field).readSchema(field, ctx);
}

export { enumSchema } from '../../runtime/kinds/kind.js';

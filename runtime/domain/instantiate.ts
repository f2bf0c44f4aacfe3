import { chunks, whichExist } from '../db/sql.js';
import type { ChildListField, FieldSpec } from '../spec.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { decodeRow } from '../rest/values.js';
import type { CreatedContext, CreatedFunction, DomainEntry } from './types.js';

/**
 * NetBox's component instantiation: a new device gets a component of every template of its device type, of each
 * model that `instantiates` one (console port templates give console ports…), created through the write path in
 * one batch per component model, so that each is validated and change-logged like any write and a type with a
 * hundred templates costs a bounded number of statements.
 *
 * A template's fields become the component's fields of the same name. A template's FK to another template (a
 * power outlet template's power port) becomes the FK to the component made from that template for the same
 * device; an FK to a template of the same model (an interface template's bridge) is set once its whole batch
 * exists.
 */

type Row = Record<string, unknown>;
/** The parent FKs of templates: never copied. */
const TEMPLATE_PARENTS = new Set(['device_type', 'module_type']);

/** One object that gets components: its id and the field and value that select its templates. */
export interface Instantiation {
  /** The object's id: the component FK `parentField` points at it. */
  id: number;
  /** Templates whose `templateField` (device_type or module_type) equals `typeId`. */
  typeId: number;
  /** Component values every component gets (its device, its module). */
  assigned: Record<string, unknown>;
  /** Rewrites a template's name, label or position for this object (`{vc_position}`, a module's `{module}`). */
  rename: (text: string) => string;
  /** False: create no component (those adopted are still assigned). Default true. */
  replicate?: boolean;
  /**
   * NetBox's adopt_components: a component that matches these values (the device's, of no module) and has the
   * name a template gives is assigned the `assigned` values instead of being created.
   */
  adopt?: Record<string, unknown>;
}

/** The template fields whose text an object rewrites (NetBox's resolve_name, resolve_label, resolve_position). */
const RENAMED = new Set(['name', 'label', 'position']);

/** `{vc_position}` or `{vc_position:X}` (X: the fallback). */
const VC_POSITION = /\{vc_position(?::([^}]*))?\}/g;

/**
 * NetBox's _resolve_vc_position: `{vc_position}` in a template's text becomes the device's position in its
 * virtual chassis; for a device in none (null), the token's fallback, else `0`.
 */
export function resolveVcPosition(text: string, position: number | null): string {
  return text.replace(VC_POSITION, (_token, fallback: string | undefined) =>
    position !== null ? String(position) : (fallback ?? '0'),
  );
}

/** A device's virtual chassis position when it is in one (the value `{vc_position}` takes), else null. */
export function chassisPosition(device: Record<string, unknown>): number | null {
  const member = device.virtual_chassis !== null && device.virtual_chassis !== undefined;
  return member && device.vc_position !== null && device.vc_position !== undefined ? Number(device.vc_position) : null;
}

/** The template models with a field selecting by `templateField`, templates before those that point at them. */
export function templateModels(schema: Schema, templateField: 'device_type' | 'module_type'): ModelInfo[] {
  const candidates = [...schema.models.values()].filter(
    (m) => m.spec.instantiates && m.fields.get(templateField)?.kind === 'fk',
  );
  const ordered: ModelInfo[] = [];
  const visit = (model: ModelInfo, seen: Set<string>): void => {
    if (ordered.includes(model) || seen.has(model.label)) return;
    seen.add(model.label);
    for (const field of model.spec.fields) {
      const targets = field.kind === 'fk' ? [field.target] : field.kind === 'generic_fk' ? field.targets : [];
      for (const label of targets) {
        const target = candidates.find((c) => c.label === label);
        if (target && target !== model) visit(target, seen);
      }
    }
    ordered.push(model);
  };
  for (const model of candidates.sort((a, b) => a.label.localeCompare(b.label))) visit(model, new Set());
  return ordered;
}

/** Creates the components of every object from the templates of its type; returns nothing, throws on errors. */
export async function instantiate(
  ctx: CreatedContext,
  templateField: 'device_type' | 'module_type',
  objects: readonly Instantiation[],
): Promise<void> {
  if (objects.length === 0) return;
  /** Template model label → template id → object id → the component made from it. */
  const made = new Map<string, Map<number, Map<number, number>>>();
  const typeIds = [...new Set(objects.map((o) => o.typeId))];
  const templates = templateModels(ctx.schema, templateField);
  // Only the template models that the types use are read (a type often has templates of few kinds, or none).
  const used = await whichExist(
    ctx.q,
    templates.map((t) => ctx.q(t.table).whereIn(t.fields.get(templateField)!.column!, typeIds)),
  );
  for (const [index, template] of templates.entries()) {
    if (!used.has(index)) continue;
    const component = ctx.schema.model(template.spec.instantiates!);
    const rows = await templatesOf(ctx, template, templateField, typeIds);
    if (rows.length === 0) continue;
    const selfReferences = template.spec.fields.filter(
      (f) => f.kind === 'fk' && f.target === template.label && component.fields.get(f.name)?.kind === 'fk',
    );
    const sources: { object: Instantiation; templateId: number; values: Row }[] = [];
    const bodies: Row[] = [];
    const adopted: { object: Instantiation; templateId: number; id: number }[] = [];
    for (const object of objects) {
      const adoptable = object.adopt ? await adoptableByName(ctx, component, object.adopt) : new Map<string, number>();
      for (const row of rows) {
        if (Number(row[template.fields.get(templateField)!.column!]) !== object.typeId) continue;
        const values = decodeRow(template.spec.fields, row);
        const body = {
          ...copyFields(ctx.schema, template, component, values, object, made, selfReferences),
          ...object.assigned,
        };
        const existing = adoptable.get(String(body.name));
        if (existing !== undefined) adopted.push({ object, templateId: Number(row.id), id: existing });
        else if (object.replicate !== false) {
          sources.push({ object, templateId: Number(row.id), values });
          bodies.push(body);
        }
      }
    }
    await ctx.update(
      component,
      adopted.map(({ object, id }) => ({ id, input: pick(object.assigned, Object.keys(object.adopt ?? {})) })),
    );
    const ids = await ctx.create(component, bodies);
    const byTemplate = new Map<number, Map<number, number>>();
    const remember = (object: Instantiation, templateId: number, id: number): void => {
      const perObject = byTemplate.get(templateId) ?? new Map<number, number>();
      perObject.set(object.id, id);
      byTemplate.set(templateId, perObject);
    };
    sources.forEach(({ object, templateId }, i) => remember(object, templateId, ids[i]!));
    adopted.forEach(({ object, templateId, id }) => remember(object, templateId, id));
    made.set(template.label, byTemplate);
    const updates = sources.flatMap(({ object, values }, i) => {
      const input: Row = {};
      for (const field of selfReferences) {
        const target = values[field.name];
        if (target !== null && target !== undefined)
          input[field.name] = byTemplate.get(Number(target))?.get(object.id) ?? null;
      }
      return Object.keys(input).length > 0 ? [{ id: ids[i]!, input }] : [];
    });
    await ctx.update(component, updates);
  }
  await instantiateChildren(ctx, templateField, objects, made);
}

/**
 * The child lists of templates (a front port template's `rear_ports`, its port template mappings) become the
 * same lists of the components made from them (the front port's port mappings): one batch per child model,
 * created after every component exists, each FK to a template pointing at the component made from it for the
 * same object. Two lists over one child table (a rear port template's `front_ports`) are copied once.
 */
async function instantiateChildren(
  ctx: CreatedContext,
  templateField: 'device_type' | 'module_type',
  objects: readonly Instantiation[],
  made: ReadonlyMap<string, ReadonlyMap<number, ReadonlyMap<number, number>>>,
): Promise<void> {
  const copied = new Set<string>();
  for (const template of templateModels(ctx.schema, templateField)) {
    const component = ctx.schema.model(template.spec.instantiates!);
    const byTemplate = made.get(template.label);
    for (const field of template.spec.fields) {
      if (field.kind !== 'children' || copied.has(field.model) || !byTemplate?.size) continue;
      const target = component.fields.get(field.name);
      if (target?.kind !== 'children') continue;
      copied.add(field.model);
      const source = ctx.schema.model(field.model);
      const parentColumn = source.fields.get(field.parent)!.column!;
      const rows: Row[] = [];
      for (const chunk of chunks([...byTemplate.keys()], 500))
        rows.push(...((await ctx.q(source.table).whereIn(parentColumn, chunk).orderBy('id').select('*')) as Row[]));
      const bodies = rows.flatMap((row) => {
        const values = decodeRow(source.spec.fields, row);
        return objects.flatMap((object) => {
          const owner = byTemplate.get(Number(values[field.parent]))?.get(object.id);
          const body = owner === undefined ? null : childBody(field, target, source, values, object, made);
          return body ? [{ [target.parent]: owner, ...body }] : [];
        });
      });
      await ctx.create(ctx.schema.model(target.model), bodies);
    }
  }
}

/** One template child's item values as the component child's fields, or null when a related template made nothing. */
function childBody(
  field: ChildListField,
  target: ChildListField,
  source: ModelInfo,
  values: Row,
  object: Instantiation,
  made: ReadonlyMap<string, ReadonlyMap<number, ReadonlyMap<number, number>>>,
): Row | null {
  const body: Row = {};
  for (const { key, field: name } of field.keys) {
    const into = target.keys.find((k) => k.key === key)?.field;
    if (!into) continue;
    const spec = source.fields.get(name)!;
    let value = values[name];
    if (spec.kind === 'fk' && made.has(spec.target) && value !== null && value !== undefined) {
      value = made.get(spec.target)!.get(Number(value))?.get(object.id);
      if (value === undefined) return null;
    }
    body[into] = value;
  }
  return body;
}

/** The components matching `where` (FK fields by name), by name: those a module may adopt. */
async function adoptableByName(
  ctx: CreatedContext,
  component: ModelInfo,
  where: Record<string, unknown>,
): Promise<Map<string, number>> {
  const query = ctx.q(component.table);
  for (const [name, value] of Object.entries(where)) {
    const column = component.fields.get(name)?.column;
    if (!column) return new Map();
    if (value === null) query.whereNull(column);
    else query.where(column, value as number);
  }
  const rows = (await query.select('id', 'name')) as Row[];
  return new Map(rows.map((r) => [String(r.name), Number(r.id)]));
}

function pick(values: Record<string, unknown>, keys: readonly string[]): Row {
  return Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k]]));
}

async function templatesOf(
  ctx: CreatedContext,
  template: ModelInfo,
  templateField: string,
  typeIds: readonly number[],
): Promise<Row[]> {
  const column = template.fields.get(templateField)!.column!;
  const name = template.fields.get('name');
  const query = ctx.q(template.table).whereIn(column, typeIds);
  if (name?.kind === 'string' && name.natural) query.orderBy(`${name.column!}_natural`);
  return (await query.orderBy('id').select('*')) as Row[];
}

/** The component body of one template: its fields that the component has, FKs to templates mapped. */
function copyFields(
  schema: Schema,
  template: ModelInfo,
  component: ModelInfo,
  values: Row,
  object: Instantiation,
  made: ReadonlyMap<string, ReadonlyMap<number, ReadonlyMap<number, number>>>,
  deferred: readonly FieldSpec[],
): Row {
  const body: Row = {};
  const instantiated = (label: string): string | null => schema.model(label).spec.instantiates ?? null;
  for (const field of template.spec.fields) {
    if (TEMPLATE_PARENTS.has(field.name) || !field.column || deferred.includes(field)) continue;
    const target = component.fields.get(field.name);
    if (!target || target.readOnly || target.hidden) continue;
    const value = values[field.name];
    const generic = template.spec.fields.find(
      (g) => g.kind === 'generic_fk' && (g.typeField === field.name || g.idField === field.name),
    );
    if (generic?.kind === 'generic_fk') {
      // A template's relation to another template (an inventory item template's component) becomes the
      // relation to the component made from it for the same object.
      const type = values[generic.typeField];
      const fromTemplate = typeof type === 'string' ? made.get(type) : undefined;
      const id = values[generic.idField];
      const componentId = fromTemplate && id !== null ? fromTemplate.get(Number(id))?.get(object.id) : undefined;
      body[field.name] =
        componentId === undefined
          ? null
          : field.name === generic.typeField
            ? instantiated(type as string)
            : componentId;
    } else if (field.kind === 'fk' && made.has(field.target)) {
      body[field.name] = value === null ? null : (made.get(field.target)!.get(Number(value))?.get(object.id) ?? null);
    } else if (typeof value === 'string' && RENAMED.has(field.name)) {
      body[field.name] = object.rename(value);
    } else {
      body[field.name] = value;
    }
  }
  return body;
}

/** A device's components from its device type's templates. */
const instantiateDeviceComponents: CreatedFunction = async (ctx, _model, created) => {
  await instantiate(
    ctx,
    'device_type',
    created.map(({ id, values }) => ({
      id,
      typeId: Number(values.device_type),
      assigned: { device: id },
      rename: (text) => resolveVcPosition(text, chassisPosition(values)),
    })),
  );
};

export const instantiateFunctions = {
  'dcim.instantiateDeviceComponents': { kind: 'created', fn: instantiateDeviceComponents },
} satisfies Record<string, DomainEntry>;

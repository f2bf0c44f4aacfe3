import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Knex } from 'knex';
import { ValidationError } from '../errors.js';
import { decodeJsonValue } from '../kinds/kind.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { chassisPosition, instantiate, resolveVcPosition, templateModels } from './instantiate.js';
import { rowOf } from './interfaces.js';
import type { BatchContext, CreatedFunction, DomainEntry, WriteItemContext } from './types.js';

/**
 * Modules: module type profiles (a profile's `schema` is a JSON schema, NetBox's validate_schema; a module
 * type's attributes are validated by it), module bays (what is installed in them), and a module's
 * installation (NetBox's Module.save(): the module type's components created on the device, `{module}`
 * replaced by the bay's position).
 */

type Row = Record<string, unknown>;
const MODULE_TOKEN = '{module}';

const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: true });

/** Why a JSON schema definition is invalid, or null when it is valid (null and '' are valid: none). */
export function schemaDefinitionError(schema: unknown): string | null {
  if (schema === null || schema === undefined || schema === '') return null;
  if (typeof schema !== 'object' || Array.isArray(schema)) return 'Invalid JSON schema definition';
  try {
    if (!ajv.validateSchema(schema)) return `Invalid JSON schema definition: ${ajv.errorsText(ajv.errors)}`;
    ajv.compile(schema);
  } catch (error) {
    return `Invalid JSON schema definition: ${(error as Error).message}`;
  }
  return null;
}

/** Why a value does not satisfy a schema (NetBox's "Invalid schema: …"), or null when it does. */
export function schemaValueError(schema: Record<string, unknown>, value: unknown): string | null {
  const validate = ajv.compile(schema);
  if (validate(value)) return null;
  const [first] = validate.errors ?? [];
  const where = first?.instancePath ? `${first.instancePath.slice(1).replaceAll('/', '.')}: ` : '';
  return `Invalid schema: ${where}${first?.message ?? 'invalid'}`;
}

/** A profile's `schema` must be a valid JSON schema definition. */
function validateJsonSchema(item: WriteItemContext): void {
  const error = schemaDefinitionError(item.values.schema);
  if (error) item.errors.add('schema', error);
}

/** A module type's attributes against its profile's schema (left alone, then cleared, without one). */
async function validateModuleTypeAttributes(item: WriteItemContext): Promise<void> {
  const profile = await rowOf(item.q, item.schema, 'dcim.moduletypeprofile', item.values.profile, ['schema']);
  const schema = profile ? decodeJsonValue(profile.schema) : null;
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return;
  const error = schemaValueError(schema as Record<string, unknown>, item.values.attributes ?? null);
  if (error) item.errors.add('__all__', error);
}

/**
 * NetBox's resolve_module_placeholder: one `{module}` is the position of the bay the module is installed in
 * (the last of `positions`, root first); as many tokens as bays deep take the positions level by level.
 */
export function resolveModulePlaceholder(value: string, positions: readonly string[]): string {
  if (!value.includes(MODULE_TOKEN)) return value;
  const count = value.split(MODULE_TOKEN).length - 1;
  if (count === 1) return value.replace(MODULE_TOKEN, positions[positions.length - 1] ?? '');
  if (count === positions.length)
    return positions.reduce((text, position) => text.replace(MODULE_TOKEN, position), value);
  throw new Error(
    `Cannot install module with placeholder values in a module bay tree ${positions.length} levels deep but ${count} placeholders given.`,
  );
}

/**
 * NetBox's get_module_bay_positions: given the positions of a module bay and of the bays above it (through
 * the modules they belong to), leaf first, the positions root first; a `{module}` in a position is replaced,
 * as NetBox does, by the position taken just before it on the way up.
 */
export function modulePositions(chain: readonly string[]): string[] {
  const positions: string[] = [];
  for (const raw of chain) {
    const previous = positions[positions.length - 1];
    positions.push(previous !== undefined && raw.includes(MODULE_TOKEN) ? raw.replaceAll(MODULE_TOKEN, previous) : raw);
  }
  return positions.reverse();
}

/** The positions of a bay and the bays above it, leaf first (one query per level). */
async function bayChain(q: Knex, schema: Schema, bayId: number): Promise<{ positions: string[]; leaf: string }> {
  const bays = schema.model('dcim.modulebay');
  const modules = schema.model('dcim.module');
  const chain: string[] = [];
  const seen = new Set<number>();
  let current: number | null = bayId;
  let leaf = '';
  while (current !== null && !seen.has(current)) {
    seen.add(current);
    const bay = (await q(bays.table).where('id', current).first('position', 'module_id')) as Row | undefined;
    if (!bay) break;
    const position = String(bay.position ?? '');
    if (chain.length === 0) leaf = position;
    chain.push(position);
    const module =
      bay.module_id === null || bay.module_id === undefined
        ? undefined
        : ((await q(modules.table).where('id', bay.module_id).first('module_bay_id')) as Row | undefined);
    current = module ? Number(module.module_bay_id) : null;
  }
  return { positions: modulePositions(chain), leaf };
}

/** A module bay's installed module, in its nested form (`id`, `url`, `display`, `serial`, `description`). */
async function installedModules(ctx: BatchContext, _model: ModelInfo, ids: readonly number[]) {
  const modules = ctx.schema.model('dcim.module');
  const rows = (await ctx
    .q(modules.table)
    .whereIn('module_bay_id', [...ids])
    .select('id', 'module_bay_id')) as Row[];
  const objects = ctx.load
    ? await ctx.load(
        modules.label,
        ['id', 'url', 'display_url', 'display', 'serial', 'description'],
        rows.map((r) => Number(r.id)),
      )
    : [];
  const byId = new Map(objects.map((o) => [Number(o.id), o]));
  const result = new Map<number, unknown>(ids.map((id) => [id, null]));
  for (const row of rows) result.set(Number(row.module_bay_id), byId.get(Number(row.id)) ?? null);
  return result;
}

/** NetBox's ModuleBay._occupied: disabled, or a module is installed. */
async function moduleBaysOccupied(ctx: BatchContext, model: ModelInfo, ids: readonly number[]) {
  const modules = ctx.schema.model('dcim.module');
  const bays = (await ctx
    .q(model.table)
    .whereIn('id', [...ids])
    .select('id', 'enabled')) as Row[];
  const used = new Set(
    (
      (await ctx
        .q(modules.table)
        .whereIn('module_bay_id', [...ids])
        .select('module_bay_id')) as Row[]
    ).map((r) => Number(r.module_bay_id)),
  );
  return new Map<number, unknown>(bays.map((b) => [Number(b.id), !b.enabled || used.has(Number(b.id))]));
}

/** NetBox's Module.clean(): the bay must be enabled when the module is installed in it. */
async function validateModuleBay(item: WriteItemContext): Promise<void> {
  const bay = item.values.module_bay;
  if (bay === null || bay === undefined || (item.existing && item.existing.module_bay === bay)) return;
  const row = await rowOf(item.q, item.schema, 'dcim.modulebay', bay, ['enabled']);
  if (row && !row.enabled) item.errors.add('module_bay', 'Cannot install a module in a disabled module bay.');
}

/**
 * NetBox's ModuleSerializer.validate() and Module.save(): a new module brings its type's components to the
 * device (unless `replicate_components` is false), named with the bay's position; `adopt_components` assigns
 * the device's components of the same name that belong to no module instead. One batch per component model.
 */
const instantiateModuleComponents: CreatedFunction = async (ctx, _model, created) => {
  const objects = [];
  const chassis = await chassisPositions(
    ctx.q,
    ctx.schema,
    created.map(({ values }) => Number(values.device)),
  );
  for (const { id, values } of created) {
    const replicate = values.replicate_components !== false;
    const adopt = values.adopt_components === true;
    if (!replicate && !adopt) continue;
    const { positions, leaf } = await bayChain(ctx.q, ctx.schema, Number(values.module_bay));
    const inModule = (text: string): string => {
      if (!text.includes(MODULE_TOKEN)) return text;
      if (!leaf)
        throw new ValidationError({
          non_field_errors: ['Cannot install module with placeholder values in a module bay with no position defined.'],
        });
      try {
        return resolveModulePlaceholder(text, positions);
      } catch (error) {
        throw new ValidationError({ non_field_errors: [(error as Error).message] });
      }
    };
    const rename = (text: string): string =>
      resolveVcPosition(inModule(text), chassis.get(Number(values.device)) ?? null);
    objects.push({
      id,
      typeId: Number(values.module_type),
      assigned: { device: values.device, module: id },
      rename,
      replicate,
      adopt: adopt ? { device: values.device, module: null } : undefined,
    });
  }
  await checkConflicts(ctx.q, ctx.schema, objects);
  await instantiate(ctx, 'module_type', objects);
};

/** Device id → its virtual chassis position (null when in none), in one query. */
async function chassisPositions(q: Knex, schema: Schema, ids: readonly number[]): Promise<Map<number, number | null>> {
  const devices = schema.model('dcim.device');
  const chassis = devices.fields.get('virtual_chassis')!.column!;
  const position = devices.fields.get('vc_position')!.column!;
  const rows = (await q(devices.table)
    .whereIn('id', [...new Set(ids)])
    .select('id', { virtual_chassis: chassis, vc_position: position })) as Row[];
  return new Map(rows.map((row) => [Number(row.id), chassisPosition(row)]));
}

/**
 * NetBox's conflict checks before a module is installed: a component the module would create exists already
 * on the device (without adoption), or one it would adopt belongs to another module.
 */
async function checkConflicts(
  q: Knex,
  schema: Schema,
  objects: readonly { typeId: number; assigned: Row; rename: (t: string) => string; adopt?: Row }[],
): Promise<void> {
  for (const template of templateModels(schema, 'module_type')) {
    const component = schema.model(template.spec.instantiates!);
    if (!component.fields.get('module') || component.fields.get('module')!.kind !== 'fk') continue;
    for (const object of objects) {
      const names = ((await q(template.table).where('module_type_id', object.typeId).select('name')) as Row[]).map(
        (r) => object.rename(String(r.name)),
      );
      if (names.length === 0) continue;
      const existing = (await q(component.table)
        .where('device_id', object.assigned.device as number)
        .whereIn('name', names)
        .select('name', 'module_id')) as Row[];
      for (const row of existing) {
        if (object.adopt && row.module_id !== null)
          throw new ValidationError({
            non_field_errors: [
              `Cannot adopt ${component.spec.className} ${String(row.name)} as it already belongs to a module`,
            ],
          });
        if (!object.adopt)
          throw new ValidationError({
            non_field_errors: [`A ${component.spec.className} named ${String(row.name)} already exists`],
          });
      }
    }
  }
}

/** NetBox's DeviceBay._occupied: disabled, or a child device is installed. */
function deviceBayOccupied(values: Record<string, unknown>): boolean {
  return !values.enabled || (values.installed_device !== null && values.installed_device !== undefined);
}

/** NetBox's DeviceBay.clean(): an enabled bay, not the device itself, a device installed in no other bay. */
async function validateDeviceBay(item: WriteItemContext): Promise<void> {
  const installed = item.values.installed_device;
  if (installed === null || installed === undefined) return;
  if (!item.values.enabled && (item.existing === null || item.existing.installed_device !== installed)) {
    item.errors.add('installed_device', 'Cannot install a device in a disabled device bay.');
    return;
  }
  if (installed === item.values.device) {
    item.errors.add('__all__', 'Cannot install a device into itself.');
    return;
  }
  // Bays of the same write come first: an earlier one may install the device, or move it out of its stored bay.
  const earlier = item.earlier.find((other) => other.values.installed_device === installed);
  if (earlier) {
    item.errors.add('installed_device', alreadyInstalled(earlier.values.name));
    return;
  }
  const bays = item.schema.model('dcim.devicebay');
  const replaced = [item.id, ...item.earlier.map((other) => other.id)].filter((id): id is number => id !== null);
  const query = item.q(bays.table).where('installed_device_id', installed as number);
  if (replaced.length > 0) query.whereNotIn('id', replaced);
  const other = (await query.first('name')) as Row | undefined;
  if (other) item.errors.add('installed_device', alreadyInstalled(other.name));
}

function alreadyInstalled(bay: unknown): string {
  return `Cannot install the specified device; device is already installed in ${String(bay)}.`;
}

/** A device's parent device (NetBox's get_parent_device): the device of the bay it is installed in, with the bay. */
async function parentDevices(ctx: BatchContext, _model: ModelInfo, ids: readonly number[]) {
  const bays = ctx.schema.model('dcim.devicebay');
  const rows = (await ctx
    .q(bays.table)
    .whereIn('installed_device_id', [...ids])
    .select('id', 'device_id', 'installed_device_id')) as Row[];
  const keys = ['id', 'url', 'display_url', 'display', 'name'];
  const devices = ctx.load
    ? await ctx.load(
        'dcim.device',
        keys,
        rows.map((r) => Number(r.device_id)),
      )
    : [];
  const nestedBays = ctx.load
    ? await ctx.load(
        bays.label,
        keys,
        rows.map((r) => Number(r.id)),
      )
    : [];
  const deviceById = new Map(devices.map((d) => [Number(d.id), d]));
  const bayById = new Map(nestedBays.map((b) => [Number(b.id), b]));
  const result = new Map<number, unknown>(ids.map((id) => [id, null]));
  for (const row of rows) {
    const device = deviceById.get(Number(row.device_id));
    if (device)
      result.set(Number(row.installed_device_id), { ...device, device_bay: bayById.get(Number(row.id)) ?? null });
  }
  return result;
}

/** NetBox's InventoryItem.clean(): a new item's component belongs to the item's device. */
async function validateInventoryItemComponent(item: WriteItemContext): Promise<void> {
  const type = item.values.component_type;
  const id = item.values.component_id;
  if (item.existing || typeof type !== 'string' || id === null || id === undefined) return;
  const component = item.schema.models.get(type);
  if (!component?.fields.get('device')) return;
  const row = (await item
    .q(component.table)
    .where('id', id as number)
    .first('device_id')) as Row | undefined;
  if (row && Number(row.device_id) !== Number(item.values.device))
    item.errors.add('device', 'Cannot assign inventory item to component on another device');
}

export const moduleFunctions = {
  'dcim.validateInventoryItemComponent': { kind: 'validator', fn: validateInventoryItemComponent, batch: true },
  'dcim.deviceBayOccupied': { kind: 'derive', fn: deviceBayOccupied },
  'dcim.validateDeviceBay': { kind: 'validator', fn: validateDeviceBay, batch: true },
  'dcim.parentDevices': { kind: 'compute', fn: parentDevices },
  'dcim.installedModules': { kind: 'compute', fn: installedModules },
  'dcim.moduleBaysOccupied': { kind: 'compute', fn: moduleBaysOccupied },
  'dcim.validateModuleBay': { kind: 'validator', fn: validateModuleBay, batch: true },
  'dcim.instantiateModuleComponents': { kind: 'created', fn: instantiateModuleComponents },
  'dcim.validateJsonSchema': { kind: 'validator', fn: validateJsonSchema, batch: true },
  'dcim.validateModuleTypeAttributes': { kind: 'validator', fn: validateModuleTypeAttributes, batch: true },
} satisfies Record<string, DomainEntry>;

import type { ActionSpec, ActionValue, ModelSpec } from '../runtime/spec.js';
import type { ActionDef } from './language.js';
import type { Reporter } from './load.js';

/** Keys of an item value that names a model's nested representation instead of giving a JSON Schema. */
const MODEL_VALUE_KEYS = new Set(['model', 'nullable', 'description']);

/**
 * Resolves a model's actions (endpoints below each object, or at the app's root for `locate`): checks what
 * each kind needs and what it names (the created model and its assigned fields, the models of nested item
 * values).
 */
export function resolveActions(
  defs: Record<string, ActionDef> | undefined,
  model: ModelSpec,
  models: ReadonlyMap<string, ModelSpec>,
  report: Reporter,
): ActionSpec[] {
  if (!defs) return [];
  if (Object.keys(defs).length > 0 && model.path === null)
    report.error('actions', 'a model without path has no actions');
  return Object.entries(defs).map(([name, def]) => {
    const at = `actions.${name}`;
    const allocate = def.kind === 'allocate';
    if (allocate) {
      if (def.paginated !== undefined) report.error(`${at}.paginated`, 'allocate actions are not paginated');
      if (def.media !== undefined) report.error(`${at}.media`, 'allocate actions answer JSON only');
      const created = def.creates ? models.get(def.creates) : undefined;
      if (!def.creates) report.error(at, "an allocate action needs 'creates'");
      else if (!created?.path || created.readOnly)
        report.error(`${at}.creates`, `'${def.creates}' is not a writable model with an endpoint`);
      for (const field of def.assigns ?? []) {
        const spec = created?.fields.find((f) => f.name === field);
        if (created && (!spec || spec.readOnly || spec.hidden))
          report.error(`${at}.assigns`, `'${field}' is not a writable field of '${created.label}'`);
      }
    } else {
      if (def.creates !== undefined) report.error(`${at}.creates`, 'only allocate actions create objects');
      if (def.assigns !== undefined) report.error(`${at}.assigns`, 'only allocate actions assign fields');
    }
    if (def.kind !== 'run') {
      if (def.permission !== undefined) report.error(`${at}.permission`, 'only run actions name a permission');
      if (def.writes !== undefined) report.error(`${at}.writes`, 'only run actions write');
      if (def.denied !== undefined) report.error(`${at}.denied`, 'only run actions name a permission');
    }
    if (def.kind === 'locate') {
      for (const key of ['item', 'paginated', 'tuple', 'media'] as const)
        if (def[key] !== undefined)
          report.error(`${at}.${key}`, `a locate action answers the model itself (no '${key}')`);
    } else if (def.kind === 'run') {
      // Without item, a run action answers the object itself (NetBox's sync/).
      for (const key of ['paginated', 'tuple', 'parameters'] as const)
        if (def[key] !== undefined) report.error(`${at}.${key}`, `a run action takes no '${key}'`);
    } else if (def.item === undefined) report.error(at, `a ${def.kind} action needs 'item'`);
    const item: Record<string, ActionValue> = {};
    for (const [key, value] of Object.entries(def.item ?? {})) {
      if (!('model' in value)) {
        item[key] = { kind: 'schema', schema: value };
        continue;
      }
      const unknown = Object.keys(value).filter((k) => !MODEL_VALUE_KEYS.has(k));
      if (unknown.length) report.error(`${at}.item.${key}`, `unknown ${unknown.map((k) => `'${k}'`).join(', ')}`);
      const target = String(value.model);
      if (!models.get(target)?.path) report.error(`${at}.item.${key}.model`, `unknown model '${target}'`);
      item[key] = { kind: 'model', model: target, nullable: value.nullable === true };
    }
    return {
      name,
      kind: def.kind,
      ...(def.description ? { description: def.description } : {}),
      function: def.function,
      ...(def.permission ? { permission: def.permission } : {}),
      ...(def.writes ? { writes: true } : {}),
      ...(def.denied === 'not_found' ? { denied: 'not_found' as const } : {}),
      ...(def.creates ? { creates: def.creates } : {}),
      assigns: def.assigns ?? [],
      parameters: def.parameters ?? {},
      item,
      paginated: def.paginated ?? false,
      ...(def.tuple ? { tuple: true } : {}),
      media: def.media ?? [],
    };
  });
}

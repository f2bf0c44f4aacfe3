import type { ModelDef, TraitDef } from './language.js';
import { ModelError, type LoadedFile } from './load.js';

/**
 * Traits: named parts of models (NetBox's mixins: owner, component, cabled object, template…) that a model
 * includes by listing them under `traits`. Including a trait is the same as writing its fields, counts,
 * filters, rules, unique constraints, indexes, search fields and features in the model, so the later stages
 * see plain models; a field, count or filter the model defines itself wins over the trait's. A trait may
 * include traits; other apps name a trait `<app>.<trait>`.
 *
 * A diagnostic about a part a trait brought is reported at the trait's YAML (see `retarget`), naming the
 * models that include it, since that is where the author must look.
 */

/** Where a part of a model came from: the trait's file and the dotted path of the part there. */
export interface TraitOrigin {
  file: string;
  at: string;
  /** The model that includes the trait (`app.model`). */
  model: string;
}

/** `<model file>\0models.<model>.<part>` → where the part came from. */
export type TraitOrigins = Map<string, TraitOrigin>;

interface TraitEntry {
  label: string;
  name: string;
  app: string;
  file: string;
  def: TraitDef;
  /** Labels of the traits it includes, directly or through others. */
  includes: Set<string>;
}

/** Parts that are maps keyed by name, parts that are lists, and parts that are one value, of traits and models. */
const NAMED_PARTS = ['fields', 'counts', 'filters', 'hooks'] as const;
const LISTED_PARTS = ['rules', 'unique_together', 'indexes', 'validators'] as const;
const SINGLE_PARTS = ['display', 'ordering', 'related_object', 'brief', 'nested', 'instantiates'] as const;

/** The files with every model's traits written into it, the errors, and where each included part came from. */
export function applyTraits(files: readonly LoadedFile[]): {
  files: LoadedFile[];
  errors: ModelError[];
  origins: TraitOrigins;
} {
  const errors: ModelError[] = [];
  const origins: TraitOrigins = new Map();
  const traits = new Map<string, TraitEntry>();
  for (const file of files) {
    for (const [name, def] of Object.entries(file.doc.traits ?? {})) {
      const label = `${file.doc.app}.${name}`;
      if (traits.has(label))
        errors.push(new ModelError(file.path, `traits.${name}`, `trait '${label}' is already defined`));
      else traits.set(label, { label, name, app: file.doc.app, file: file.path, def, includes: new Set() });
    }
  }

  /** The traits that refs name, each after the traits it includes, each once. */
  const collect = (
    refs: readonly string[],
    app: string,
    file: string,
    at: string,
    stack: string[],
    into: TraitEntry[],
  ) => {
    refs.forEach((ref, index) => {
      const label = ref.includes('.') ? ref : `${app}.${ref}`;
      const entry = traits.get(label);
      if (!entry) {
        errors.push(new ModelError(file, `${at}.${index}`, `unknown trait '${label}'`));
      } else if (stack.includes(label)) {
        errors.push(new ModelError(file, `${at}.${index}`, `trait '${label}' includes itself`));
      } else if (!into.includes(entry)) {
        const below: TraitEntry[] = [];
        collect(entry.def.traits ?? [], entry.app, entry.file, `traits.${entry.name}.traits`, [...stack, label], below);
        for (const included of below) {
          entry.includes.add(included.label);
          if (!into.includes(included)) into.push(included);
        }
        into.push(entry);
      }
    });
  };

  const expanded = files.map((file) => {
    const models: Record<string, ModelDef> = {};
    for (const [name, def] of Object.entries(file.doc.models)) {
      if (!def.traits?.length) {
        models[name] = def;
        continue;
      }
      const chain: TraitEntry[] = [];
      collect(def.traits, file.doc.app, file.path, `models.${name}.traits`, [], chain);
      const included = include(name, def, chain, (part, entry, at) => {
        origins.set(`${file.path}\0models.${name}.${part}`, {
          file: entry.file,
          at: `traits.${entry.name}.${at}`,
          model: `${file.doc.app}.${name}`,
        });
      });
      for (const clash of included.clashes) errors.push(new ModelError(file.path, `models.${name}.traits`, clash));
      models[name] = included.def;
    }
    return { ...file, doc: { ...file.doc, models } };
  });
  return { files: expanded, errors, origins };
}

/**
 * The model with the traits' parts added (its own parts win), and the parts two traits both define. As with
 * classes, a trait's part replaces that of a trait it includes; two traits that do not include one another
 * may not define the same part. `{model}` in a field's `related_name` is the model's name (Django's
 * `%(class)s`).
 */
function include(
  name: string,
  model: ModelDef,
  chain: readonly TraitEntry[],
  record: (part: string, entry: TraitEntry, at: string) => void,
): { def: ModelDef; clashes: string[] } {
  const own = model as unknown as Record<string, unknown>;
  const def: Record<string, unknown> = { ...model, fields: { ...model.fields } };
  const clashes: string[] = [];
  const definedBy = new Map<string, TraitEntry>();
  /** Whether the entry's part at `key` goes in (recorded), after checking it against the trait that set it. */
  const takes = (entry: TraitEntry, key: string): boolean => {
    const other = definedBy.get(key);
    if (other && !entry.includes.has(other.label)) {
      clashes.push(`traits '${other.label}' and '${entry.label}' both define ${key}; define it in the model`);
      return false;
    }
    definedBy.set(key, entry);
    record(key, entry, key);
    return true;
  };
  for (const entry of chain) {
    const trait = entry.def as TraitDef & Record<string, unknown>;
    for (const part of NAMED_PARTS) {
      const mine = own[part] as Record<string, unknown> | undefined;
      const target = { ...(def[part] as Record<string, unknown> | undefined) };
      for (const [key, value] of Object.entries((trait[part] ?? {}) as Record<string, unknown>)) {
        if (mine && key in mine) continue;
        if (takes(entry, `${part}.${key}`)) target[key] = part === 'fields' ? named(value, name) : value;
      }
      if (Object.keys(target).length > 0) def[part] = target;
    }
    for (const part of SINGLE_PARTS) {
      if (trait[part] === undefined || own[part] !== undefined) continue;
      if (takes(entry, part)) def[part] = trait[part];
    }
    for (const part of LISTED_PARTS) {
      const items = (trait[part] ?? []) as unknown[];
      if (items.length === 0) continue;
      const target = [...((def[part] ?? []) as unknown[])];
      items.forEach((item, index) => {
        record(`${part}.${target.length}`, entry, `${part}.${index}`);
        target.push(item);
      });
      def[part] = target;
    }
    for (const part of ['features', 'search'] as const) {
      if (trait[part]) def[part] = [...new Set([...((def[part] ?? []) as string[]), ...trait[part]])];
    }
  }
  return { def: def as unknown as ModelDef, clashes };
}

/** A trait's field definition for one model: `{model}` in its related_name is the model's name. */
function named(value: unknown, model: string): unknown {
  const field = value as { related_name?: unknown };
  if (typeof field.related_name !== 'string' || !field.related_name.includes('{model}')) return value;
  return { ...field, related_name: field.related_name.replaceAll('{model}', model) };
}

/**
 * An error about a part that a trait brought, moved to the trait's file and path; each error once, naming
 * every model where it arose (a mistake in a trait shows in every model that includes it).
 */
export function retarget(errors: readonly ModelError[], origins: TraitOrigins): ModelError[] {
  const byPlace = new Map<string, { error: ModelError; models: string[] }>();
  const result: (ModelError | { error: ModelError; models: string[] })[] = [];
  for (const error of errors) {
    const origin = originOf(error, origins);
    if (!origin) {
      result.push(error);
      continue;
    }
    const moved = new ModelError(origin.file, origin.at, error.message);
    const key = `${moved.file}|${moved.at}|${moved.message}`;
    const seen = byPlace.get(key);
    if (seen) {
      if (!seen.models.includes(origin.model)) seen.models.push(origin.model);
      continue;
    }
    const entry = { error: moved, models: [origin.model] };
    byPlace.set(key, entry);
    result.push(entry);
  }
  return result.map((item) => {
    if (item instanceof ModelError) return item;
    const { error, models } = item;
    const names = models.map((m) => `'${m}'`).join(', ');
    return new ModelError(error.file, error.at, `${error.message} (in model${models.length > 1 ? 's' : ''} ${names})`);
  });
}

/** The origin of the longest recorded part that the error's path lies in, with the rest of the path. */
function originOf(error: ModelError, origins: TraitOrigins): TraitOrigin | undefined {
  const segments = error.at.split('.');
  for (let n = segments.length; n >= 3; n--) {
    const origin = origins.get(`${error.file}\0${segments.slice(0, n).join('.')}`);
    if (origin) return { ...origin, at: [origin.at, ...segments.slice(n)].join('.') };
  }
  return undefined;
}

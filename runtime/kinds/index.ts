/**
 * The field kinds, by spec kind and by YAML type. A new kind is one module (see kind.ts) added to BUILT_IN,
 * or registered with `registerKind` before generating and serving (a plugin, a test).
 */
import type { FieldSpec } from '../spec.js';
import { aliasKind } from './alias.js';
import { booleanKind } from './boolean.js';
import { childrenKind } from './children.js';
import { choiceKind } from './choice.js';
import { computedKind } from './computed.js';
import { constantKind } from './constant.js';
import { contentTypeKind } from './content-type.js';
import { dateKind } from './date.js';
import { decimalKind } from './decimal.js';
import { derivedKind } from './derived.js';
import { fkKind } from './fk.js';
import { genericFkKind } from './generic-fk.js';
import { imageKind } from './image.js';
import { integerKind } from './integer.js';
import { ipFamilyKind } from './ip-family.js';
import { ipKind } from './ip.js';
import type { AnyField, FieldKindModule } from './kind.js';
import { jsonKind } from './json.js';
import { listKind } from './list.js';
import { m2mKind } from './m2m.js';
import { objectTypesKind } from './object-types.js';
import { passwordKind } from './password.js';
import { stringKind } from './string.js';

/** The spec of the fields of one kind (`date` → DateField, which serves `date` and `datetime`). */
type FieldOfKind<K, F = FieldSpec> = F extends { kind: infer Kinds } ? (K extends Kinds ? F : never) : never;
type KindModules = { [K in FieldSpec['kind']]: FieldKindModule<FieldOfKind<K>> };

/** Every built-in kind, checked complete against the FieldSpec union. */
const BUILT_IN: KindModules = {
  string: stringKind,
  integer: integerKind,
  decimal: decimalKind,
  boolean: booleanKind,
  date: dateKind,
  datetime: dateKind,
  json: jsonKind,
  choice: choiceKind,
  fk: fkKind,
  list: listKind,
  object_types: objectTypesKind,
  password: passwordKind,
  m2m: m2mKind,
  children: childrenKind,
  content_type: contentTypeKind,
  generic_fk: genericFkKind,
  ip_network: ipKind,
  ip_interface: ipKind,
  ip_family: ipFamilyKind,
  constant: constantKind,
  computed: computedKind,
  alias: aliasKind,
  derived: derivedKind,
  image: imageKind,
};

const byKind = new Map<string, FieldKindModule>(Object.entries(BUILT_IN) as [string, FieldKindModule][]);
const byType = new Map<string, FieldKindModule>();
for (const module of new Set(byKind.values())) for (const type of module.types) byType.set(type, module);

/** Adds a field kind (idempotent for the same module); its kinds and YAML types must be new. */
export function registerKind<F extends AnyField>(module: FieldKindModule<F>): void {
  const entry = module as unknown as FieldKindModule;
  for (const kind of module.kinds) {
    const known = byKind.get(kind);
    if (known && known !== entry) throw new Error(`field kind '${kind}' is already defined`);
  }
  for (const type of module.types) {
    const known = byType.get(type);
    if (known && known !== entry) throw new Error(`field type '${type}' is already defined`);
  }
  for (const kind of module.kinds) byKind.set(kind, entry);
  for (const type of module.types) byType.set(type, entry);
}

/** Removes a registered kind module again (tests that register one leave the registry as they found it). */
export function unregisterKind<F extends AnyField>(module: FieldKindModule<F>): void {
  const entry = module as unknown as FieldKindModule;
  for (const kind of module.kinds) if (byKind.get(kind) === entry) byKind.delete(kind);
  for (const type of module.types) if (byType.get(type) === entry) byType.delete(type);
}

/** The module of a field's kind. */
export function kindOf<F extends AnyField>(field: F): FieldKindModule<F> {
  const module = byKind.get(field.kind);
  if (!module) throw new Error(`unknown field kind '${field.kind}'`);
  return module as unknown as FieldKindModule<F>;
}

/**
 * True when the field is stored in a column of its own (an IP family reads the hidden column of the IP
 * field it describes, which owns it).
 */
export function ownsColumn(field: AnyField): boolean {
  return field.column !== undefined && kindOf(field).column(field) !== null;
}

/** The module that resolves a YAML field type, if any. */
export function kindOfType(type: string): FieldKindModule | undefined {
  return byType.get(type);
}

/** Every YAML field type, in the order the kinds were defined. */
export function fieldTypes(): string[] {
  return [...byType.keys()];
}

/** Every kind module (each once). */
export function kindModules(): FieldKindModule[] {
  return [...new Set(byKind.values())];
}

export type { AnyField, FieldKindModule } from './kind.js';

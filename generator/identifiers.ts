import type { ModelSpec } from '../runtime/spec.js';
import { ModelError, type LoadedFile } from './load.js';
import type { ModelGraph } from './resolve.js';
import { choiceTypeName, modelNames } from './emit/types.js';

/**
 * Names that an emitted module may not declare: the global types and values of TypeScript's standard library
 * and Node.js (a model class `Record` would shadow the `Record<K, V>` its own module uses), and the names the
 * emitted modules import (`Router`, `ModelSpec`, …).
 */
const RESERVED = new Set([
  // TypeScript's utility types and the keywords that name types.
  ...'Awaited Capitalize ConstructorParameters Exclude Extract InstanceType Lowercase NoInfer NonNullable Omit OmitThisParameter Parameters Partial Pick PropertyKey Readonly ReadonlyArray ReadonlyMap ReadonlySet Record Required ReturnType ThisParameterType ThisType Uncapitalize Uppercase'.split(
    ' ',
  ),
  // ECMAScript globals (types and values).
  ...'AggregateError Array ArrayBuffer ArrayBufferLike ArrayBufferView ArrayLike AsyncGenerator AsyncGeneratorFunction AsyncIterable AsyncIterableIterator AsyncIterator Atomics BigInt BigInt64Array BigUint64Array Boolean CallableFunction ClassDecorator DataView Date DecoratorContext Error EvalError FinalizationRegistry Float32Array Float64Array Function Generator GeneratorFunction Infinity Int16Array Int32Array Int8Array Intl Iterable IterableIterator Iterator IteratorResult JSON Map Math NaN NewableFunction Number Object Promise PromiseLike PromiseConstructor Proxy RangeError ReferenceError Reflect RegExp Set SharedArrayBuffer String Symbol SyntaxError TemplateStringsArray TypeError TypedPropertyDescriptor URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet'.split(
    ' ',
  ),
  // Node.js and web globals the runtime's types see.
  ...'AbortController AbortSignal Blob Buffer BufferEncoding Crypto Event EventTarget File FormData Headers NodeJS Performance Request Response TextDecoder TextEncoder URL URLSearchParams WebAssembly'.split(
    ' ',
  ),
  // What the emitted modules import.
  ...'ModelHandlers ModelSpec RelatedInput Router TagInput Migration Registry DomainFunctionName'.split(' '),
]);

/**
 * Refuses emitted identifiers that would clash: a model's class name (or a name derived from it: `<Class>Row`,
 * `<Class>Write`, `<Class>Brief`, `<Class>Nested`, a choice field's `<Class><Field>` union) that is a
 * TypeScript, Node.js or imported name, two declarations of one name in a module, or two models of one app
 * with the same class name (the registry imports each as `<app><Class>`). Each is reported at the YAML node
 * that gave the name: `class_name`, else `verbose_name`, else the model's key; a field for a choice union.
 */
export function checkIdentifiers(graph: ModelGraph, files: readonly LoadedFile[]): ModelError[] {
  const errors: ModelError[] = [];
  const defs = new Map<string, { class_name?: string; verbose_name?: string }>(
    files.flatMap((f) => Object.entries(f.doc.models).map(([name, def]) => [`${f.doc.app}.${name}`, def] as const)),
  );
  const models = new Map(graph.models.map((m) => [m.label, m]));
  const registryNames = new Map<string, string>();
  for (const model of graph.models) {
    const def = defs.get(model.label);
    const file = graph.sources.get(model.label) ?? '';
    const nameAt = `models.${model.name}${def?.class_name ? '.class_name' : def?.verbose_name ? '.verbose_name' : ''}`;
    const refuse = (at: string, message: string): void => {
      errors.push(new ModelError(file, at, message));
    };
    const hint = "; give the model another 'class_name'";
    const names = modelNames(model);
    const declared = new Map<string, string>();
    const declare = (name: string, at: string, what: string): void => {
      if (RESERVED.has(name)) {
        refuse(at, `the ${what} '${name}' is a TypeScript or runtime name that the generated code uses${hint}`);
      } else if (declared.has(name)) {
        refuse(at, `the ${what} '${name}' is also the ${declared.get(name)!} of the generated module${hint}`);
      }
      declared.set(name, what);
    };
    for (const target of nestedImports(model, models)) declared.set(`${target.className}Nested`, 'imported type');
    declare(names.type, nameAt, 'class name');
    declare(names.row, nameAt, 'row type');
    declare(names.write, nameAt, 'write type');
    declare(names.brief, nameAt, 'brief type');
    declare(`${names.type}Nested`, nameAt, 'nested type');
    for (const field of model.fields) {
      if (field.kind === 'choice')
        declare(choiceTypeName(model, field), `models.${model.name}.fields.${field.name}`, 'choice type');
    }
    const alias = `${model.app}${model.className}`;
    const other = registryNames.get(alias);
    if (other) refuse(nameAt, `the class name '${model.className}' is also the class name of '${other}'${hint}`);
    registryNames.set(alias, model.label);
  }
  return errors;
}

/** The models whose `<Class>Nested` type a model's module imports (see emit/model-module.ts). */
function nestedImports(model: ModelSpec, models: ReadonlyMap<string, ModelSpec>): ModelSpec[] {
  return model.fields.flatMap((field) => {
    const related = field.kind === 'fk' || (field.kind === 'm2m' && !field.by);
    if (!related || field.target === model.label) return [];
    const target = models.get(field.target);
    return target ? [target] : [];
  });
}

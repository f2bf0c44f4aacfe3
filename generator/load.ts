import { LineCounter, parseDocument } from 'yaml';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { fieldTypes, kindModules } from '../runtime/kinds/index.js';
import languageSchema from './model-language.schema.json' with { type: 'json' };
import type { ModelFile } from './language.js';
import { locatePath, type Position } from './locate.js';

/** Context for reporting errors at a dotted path of one file. */
export interface Reporter {
  error(at: string, message: string): void;
}

/** A source file handed to the generator. */
export interface SourceFile {
  /** Path as it appears in error messages, e.g. `models/dcim.yaml`. */
  path: string;
  text: string;
}

/** A parsed and schema-valid model file. */
export interface LoadedFile {
  path: string;
  doc: ModelFile;
  /** The position of the node at a dotted path (see locatePath). */
  locate(at: string): Position | undefined;
  /** The plugin whose folder holds the file; absent for core model files. */
  plugin?: { name: string; baseUrl: string };
}

/**
 * A problem found in a model file: the file, the line and column of the node at fault, and the dotted path
 * of that node (`models.site.fields.name.max_length`).
 */
export class ModelError {
  constructor(
    readonly file: string,
    readonly at: string,
    readonly message: string,
    readonly position?: Position,
  ) {}

  /** The same error at a position in its file. */
  placed(position: Position | undefined): ModelError {
    return new ModelError(this.file, this.at, this.message, position);
  }

  toString(): string {
    const where = this.position ? `${this.file}:${this.position.line}:${this.position.col}` : this.file;
    return this.at ? `${where}: ${this.at}: ${this.message}` : `${where}: ${this.message}`;
  }
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, strictTuples: false });
let compiled: { key: string; validate: ValidateFunction } | undefined;

/**
 * The model language's validator. The field types and properties of kinds registered besides the built-in
 * ones (runtime/kinds) are added to the JSON Schema, whose own list of types serves editors.
 */
function fileValidator(): ValidateFunction {
  const modules = kindModules();
  const key = modules.map((m) => m.types.join(',')).join(';');
  if (compiled?.key === key) return compiled.validate;
  const schema = structuredClone(languageSchema) as unknown as LanguageSchema;
  const field = schema.definitions.field;
  const known = new Set(field.properties.type.enum);
  field.properties.type.enum.push(...fieldTypes().filter((type) => !known.has(type)));
  for (const module of modules) {
    for (const [name, property] of Object.entries(module.propertySchemas ?? {})) {
      field.properties[name] ??= property;
    }
  }
  delete schema.$id;
  compiled = { key, validate: ajv.compile(schema) };
  return compiled.validate;
}

interface LanguageSchema {
  $id?: string;
  definitions: { field: { properties: Record<string, unknown> & { type: { enum: string[] } } } };
}

/** Parses YAML model files and validates them against the model language; collects every error. */
export function loadModelFiles(files: readonly SourceFile[]): { loaded: LoadedFile[]; errors: ModelError[] } {
  const loaded: LoadedFile[] = [];
  const errors: ModelError[] = [];
  for (const file of files) {
    const lines = new LineCounter();
    const document = parseDocument(file.text, { merge: true, lineCounter: lines });
    const [syntaxError] = document.errors;
    if (syntaxError) {
      // Later syntax errors are mostly the first one seen again from further on (an unclosed bracket).
      const message = (syntaxError.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      errors.push(new ModelError(file.path, '', message, syntaxError.linePos?.[0]));
      continue;
    }
    const locate = (at: string): Position | undefined => locatePath(document, lines, at ? at.split('.') : []);
    const doc: unknown = document.toJS({ maxAliasCount: 1000 });
    const validateFile = fileValidator();
    if (validateFile(doc)) {
      loaded.push({ path: file.path, doc: doc as unknown as ModelFile, locate });
    } else {
      errors.push(...describeSchemaErrors(file.path, validateFile.errors ?? [], locate));
    }
  }
  return { loaded, errors: uniqueErrors(errors) };
}

/**
 * Drops repeated diagnostics: the same message at the same node, which a mistake inside an anchored
 * template (used by many fields) or a check that two stages make would otherwise give several times.
 */
export function uniqueErrors(errors: readonly ModelError[]): ModelError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const where = error.position ? `${error.position.line}:${error.position.col}` : error.at;
    const key = `${error.file}|${where}|${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describeSchemaErrors(
  file: string,
  raw: ErrorObject[],
  locate: (at: string) => Position | undefined,
): ModelError[] {
  // oneOf/anyOf produce a summary plus one error per branch; the summary alone reads best.
  const result: ModelError[] = [];
  for (const error of raw) {
    // A name that breaks `propertyNames` gives the broken rule and a summary; the summary names the name.
    if (error.propertyName !== undefined && error.keyword !== 'propertyNames') continue;
    const at = error.instancePath.slice(1).split('/').filter(Boolean).join('.');
    // An unknown property or an invalid name is reported at its key, not at the object holding it.
    const key =
      error.keyword === 'additionalProperties' ? params(error).additionalProperty : params(error).propertyName;
    const node = key === undefined ? at : joinPath(at, String(key));
    result.push(new ModelError(file, at, describeSchemaError(error), locate(node)));
  }
  return collapseBranchErrors(result, raw);
}

function collapseBranchErrors(errors: ModelError[], raw: ErrorObject[]): ModelError[] {
  const oneOfPaths = raw
    .filter((e) => e.keyword === 'oneOf')
    .map((e) => e.instancePath.slice(1).split('/').filter(Boolean).join('.'));
  const isBranchError = (e: ModelError): boolean =>
    e.message !== ONE_OF_MESSAGE && oneOfPaths.some((p) => e.at === p || e.at.startsWith(`${p}.`));
  return errors.filter((e) => !isBranchError(e));
}

function params(error: ErrorObject): Record<string, unknown> {
  return error.params as Record<string, unknown>;
}

function joinPath(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}

const ONE_OF_MESSAGE = 'does not match any of the allowed forms';

function describeSchemaError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown property '${String(params.additionalProperty)}'`;
    case 'required':
      return `missing property '${String(params.missingProperty)}'`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'propertyNames':
      return `invalid name '${String(params.propertyName)}'`;
    case 'oneOf':
      return ONE_OF_MESSAGE;
    default:
      return error.message ?? error.keyword;
  }
}

import { parseDocument } from 'yaml';
import { Ajv, type ErrorObject } from 'ajv';
import languageSchema from './model-language.schema.json' with { type: 'json' };
import type { ModelFile } from './language.js';

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
}

/** A problem found in a model file: the file and the dotted path inside it. */
export class ModelError {
  constructor(
    readonly file: string,
    readonly at: string,
    readonly message: string,
  ) {}

  toString(): string {
    return this.at ? `${this.file}: ${this.at}: ${this.message}` : `${this.file}: ${this.message}`;
  }
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, strictTuples: false });
const validateFile = ajv.compile(languageSchema);

/** Parses YAML model files and validates them against the model language; collects every error. */
export function loadModelFiles(files: readonly SourceFile[]): { loaded: LoadedFile[]; errors: ModelError[] } {
  const loaded: LoadedFile[] = [];
  const errors: ModelError[] = [];
  for (const file of files) {
    const document = parseDocument(file.text, { merge: true });
    if (document.errors.length > 0) {
      for (const error of document.errors) {
        const line = error.linePos?.[0];
        errors.push(new ModelError(file.path, line ? `line ${line.line}` : '', error.message.split('\n')[0] ?? ''));
      }
      continue;
    }
    const doc: unknown = document.toJS({ maxAliasCount: 1000 });
    if (validateFile(doc)) {
      loaded.push({ path: file.path, doc: doc as unknown as ModelFile });
    } else {
      errors.push(...describeSchemaErrors(file.path, validateFile.errors ?? []));
    }
  }
  return { loaded, errors };
}

function describeSchemaErrors(file: string, raw: ErrorObject[]): ModelError[] {
  // oneOf/anyOf produce a summary plus one error per branch; the summary alone reads best.
  const seen = new Set<string>();
  const result: ModelError[] = [];
  for (const error of raw) {
    const at = error.instancePath.slice(1).split('/').filter(Boolean).join('.');
    const message = describeSchemaError(error);
    const key = `${at}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(new ModelError(file, at, message));
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

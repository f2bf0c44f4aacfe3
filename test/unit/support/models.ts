import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Schema } from '../../../runtime/rest/schema.js';
import type { Migration, ModelSpec, Registry } from '../../../runtime/spec.js';

/**
 * The repository's generated model specs and migrations, read without `generated/index.ts`: the registry
 * module also imports the 3 MB OpenAPI document, whose transform costs a unit test file about two seconds.
 */

const generated = path.resolve(import.meta.dirname, '../../../generated');

const moduleFiles = fs
  .readdirSync(generated, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'migrations')
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(generated, dir.name))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => path.join(generated, dir.name, file)),
  );

const isModelSpec = (value: unknown): value is ModelSpec =>
  typeof value === 'object' && value !== null && 'label' in value && 'table' in value && 'fields' in value;

const modules = await Promise.all(
  moduleFiles.map((file) => import(pathToFileURL(file).href) as Promise<Record<string, unknown>>),
);

/** Every model spec by label. */
export const models: Record<string, ModelSpec> = Object.fromEntries(
  modules
    .flatMap((module) => Object.values(module).filter(isModelSpec))
    .sort((a, b) => a.label.localeCompare(b.label))
    .map((spec) => [spec.label, spec]),
);

/** The committed migrations, in order. */
export const migrations: Migration[] = fs
  .readdirSync(path.join(generated, 'migrations'))
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(fs.readFileSync(path.join(generated, 'migrations', file), 'utf8')) as Migration);

/** The runtime's view of the models (what `Schema` reads of the registry: its models and migrations). */
export const schema = new Schema({ models, migrations, plugins: [] } as unknown as Registry);

import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../generator/generate.js';
import type { Migration } from '../../../runtime/spec.js';

/**
 * Snapshot tests of the generator's pure core on the small fixture models in `fixtures/`: every output file
 * (model modules, registry, OpenAPI document, migrations) is compared with its committed copy under
 * `__snapshots__/` (named `<output path>.snap`, so that no tool type-checks or formats them). A changed
 * emitter shows up as a reviewable diff; `npx vitest run test/unit/generator -u` rewrites the copies, and CI
 * (CI=true) never writes them.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const fixtures = path.join(import.meta.dirname, 'fixtures');
const snapshots = path.join(import.meta.dirname, '__snapshots__');
const registryTemplate = fs.readFileSync(path.join(root, 'templates', 'registry.ts.hbs'), 'utf8');

const fixtureModels = fs
  .readdirSync(fixtures)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => ({ path: `fixtures/${f}`, text: fs.readFileSync(path.join(fixtures, f), 'utf8') }));

async function generateFrom(models: typeof fixtureModels, migrations: { path: string; text: string }[] = []) {
  return generate({ models, migrations, version: '4.6.0', registryTemplate });
}

/** The migration that the change made by `evolved()` adds. */
const SECOND_MIGRATION = '0002_catalog_warehouse_create_table_and_more';

const migrationsOf = (result: GenerateResult): { path: string; text: string }[] =>
  [...result.files].filter(([p]) => p.startsWith('migrations/')).map(([p, text]) => ({ path: p, text }));

/** The fixture models after a change: a field added, one dropped, a unique constraint added, a model added. */
function evolved(): typeof fixtureModels {
  return fixtureModels.map((file) => {
    if (file.path !== 'fixtures/catalog.yaml') return file;
    const text = file.text
      .replace(
        '      comments: { type: text, blank: true }\n',
        '      comments: { type: text, blank: true }\n      founded: { type: date, nullable: true }\n',
      )
      .replace('      released: { type: date, nullable: true }\n', '')
      .replace(
        '      slug: { type: slug, max_length: 50 }\n',
        '      slug: { type: slug, max_length: 50, unique: true }\n',
      )
      .concat('\n  warehouse:\n    path: warehouses\n    fields:\n      name: { type: string, max_length: 30 }\n');
    expect(text).not.toBe(file.text);
    return { ...file, text };
  });
}

describe('generation from the fixture models', () => {
  let result: GenerateResult;
  beforeAll(async () => {
    result = await generateFrom(fixtureModels);
  });

  it('succeeds', () => {
    expect(result.errors).toEqual([]);
  });

  it('emits one module per model, the registry, the OpenAPI document and the initial migration', () => {
    expect([...result.files.keys()]).toEqual([
      'catalog/category.ts',
      'catalog/product.ts',
      'catalog/tag.ts',
      'catalog/taggeditem.ts',
      'catalog/vendor.ts',
      'index.ts',
      'migrations/0001_initial.json',
      'net/address.ts',
      'net/network.ts',
      'net/zone.ts',
      'openapi.json',
    ]);
  });

  it('matches the committed snapshot of every file', async () => {
    for (const [file, text] of result.files) {
      await expect.soft(text, file).toMatchFileSnapshot(path.join(snapshots, `${file}.snap`));
    }
  });

  it('adds a second migration for a change, leaving the first one as it was', async () => {
    const next = await generateFrom(evolved(), migrationsOf(result));
    expect(next.errors).toEqual([]);
    const migrations = migrationsOf(next);
    expect(migrations.map((m) => m.path)).toEqual([
      'migrations/0001_initial.json',
      `migrations/${SECOND_MIGRATION}.json`,
    ]);
    expect(migrations[0]!.text).toBe(result.files.get('migrations/0001_initial.json'));
    const second = JSON.parse(migrations[1]!.text) as Migration;
    // New tables first (a new column may refer to one), then table by table in dependency order.
    expect(second.ops.map((op) => `${op.op} ${op.table}`)).toEqual([
      'createTable catalog_warehouse',
      'createIndex catalog_category',
      'addColumn catalog_vendor',
      'dropColumn catalog_product',
    ]);
    await expect(migrations[1]!.text).toMatchFileSnapshot(path.join(snapshots, `${migrations[1]!.path}.snap`));
  });

  it('leaves no snapshot behind that the generator no longer emits', () => {
    // Missing snapshots fail above (in CI); here, any snapshot without an output file is an orphan.
    const list = (dir: string, prefix = ''): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
        return entry.isDirectory() ? list(path.join(dir, entry.name), relative) : [relative];
      });
    const expected = new Set([...result.files.keys(), `migrations/${SECOND_MIGRATION}.json`].map((f) => `${f}.snap`));
    const orphans = (fs.existsSync(snapshots) ? list(snapshots) : []).filter((f) => !expected.has(f));
    expect(orphans).toEqual([]);
  });
});

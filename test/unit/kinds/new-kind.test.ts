import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../generator/generate.js';
import { fieldTypes, kindOf, registerKind, unregisterKind } from '../../../runtime/kinds/index.js';
import { parseFieldValue } from '../../../runtime/rest/parse-field.js';
import { decodeColumn, encodeColumn, presentValue } from '../../../runtime/rest/values.js';
import type { FieldSpec } from '../../../runtime/spec.js';
import { errorsOf, modelOf, shop } from '../generator/model-files.js';
import { percentKind } from './percent-kind.js';

/**
 * DESIGN.md 8: a field kind is one module that knows everything about it. A kind registered from one file
 * (percent-kind.ts) goes through the whole generator (YAML, column, TypeScript types, OpenAPI, filters) and
 * the runtime's value handling without a change anywhere else.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const registryTemplate = fs.readFileSync(path.join(root, 'templates', 'registry.ts.hbs'), 'utf8');

const MODELS = shop(`  gauge:
    path: gauges
    fields:
      name: { type: string, max_length: 50 }
      level: { type: percent }
      limit: { type: percent, at_most: 80, nullable: true }
`);

describe('a field kind registered from one module', () => {
  let result: GenerateResult;
  let level: FieldSpec;
  let limit: FieldSpec;
  beforeAll(async () => {
    registerKind(percentKind);
    result = await generate({
      models: [{ path: 'models/shop.yaml', text: MODELS }],
      migrations: [],
      version: '4.6.0',
      registryTemplate,
    });
    const gauge = modelOf(MODELS, 'shop.gauge');
    level = gauge.fields.find((f) => f.name === 'level')!;
    limit = gauge.fields.find((f) => f.name === 'limit')!;
  });
  // The unit project shares modules between files: the built-in kinds are as they were for the others.
  afterAll(() => unregisterKind(percentKind));

  it('is a type of the model language, with its own properties checked', () => {
    expect(fieldTypes()).toContain('percent');
    expect(result.errors).toEqual([]);
    expect(errorsOf(shop('  gauge:\n    fields:\n      level: { type: percent, at_most: 150 }\n'))).toEqual([
      'models/shop.yaml:5:31: models.gauge.fields.level.at_most: must be <= 100',
    ]);
    expect(errorsOf(shop('  gauge:\n    fields:\n      level: { type: percent, max_length: 5 }\n'))).toEqual([
      'models/shop.yaml:5:31: models.gauge.fields.level.max_length: not allowed on a field of type percent',
    ]);
    expect(level).toMatchObject({ kind: 'percent', column: 'level', required: true, max: 100 });
    expect(limit).toMatchObject({ kind: 'percent', required: false, nullable: true, max: 80 });
  });

  it('gets its column in the migration', () => {
    const migration = JSON.parse(result.files.get('migrations/0001_initial.json')!) as {
      ops: { table: string; columns?: { name: string; column: unknown; nullable: boolean }[] }[];
    };
    const columns = migration.ops.find((op) => op.table === 'shop_gauge')!.columns!;
    expect(columns.filter((c) => c.name !== 'name' && c.name !== 'id')).toEqual(
      expect.arrayContaining([
        { name: 'level', column: { type: 'integer' }, nullable: false },
        { name: 'limit', column: { type: 'integer' }, nullable: true },
      ]),
    );
  });

  it('gets its TypeScript types in the model module', () => {
    const module = result.files.get('shop/gauge.ts')!;
    expect(module).toMatch(/level: number;/);
    expect(module).toMatch(/limit: number \| null;/);
  });

  it('gets its OpenAPI read and write schemas and a derived filter', () => {
    const openapi = JSON.parse(result.files.get('openapi.json')!) as {
      paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(openapi.components.schemas.Gauge!.properties.level).toEqual({ type: 'integer', minimum: 0, maximum: 100 });
    expect(openapi.components.schemas.Gauge!.properties.limit).toEqual({
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 80,
    });
    expect(openapi.components.schemas.GaugeRequest!.properties.level).toEqual({
      oneOf: [
        { type: 'integer', minimum: 0, maximum: 100 },
        { type: 'string', pattern: '^\\d+%$' },
      ],
    });
    const parameters = openapi.paths['/api/shop/gauges/']!.get!.parameters!.map((p) => p.name);
    expect(parameters).toEqual(expect.arrayContaining(['level', 'level__gte', 'level__lt', 'limit__n']));
  });

  it('parses, encodes, decodes and presents its values in the runtime', () => {
    expect(parseFieldValue(level, '42%')).toEqual({ ok: true, value: 42 });
    expect(parseFieldValue(level, 7)).toEqual({ ok: true, value: 7 });
    expect(parseFieldValue(limit, 90)).toEqual({ ok: false, errors: ['Ensure this value is between 0 and 80.'] });
    expect(parseFieldValue(level, 'lots')).toEqual({ ok: false, errors: ['A valid percentage is required.'] });
    expect(encodeColumn(level, 42, 'sqlite')).toBe(42);
    expect(presentValue(level, decodeColumn(level, '42'))).toBe(42);
    const meta: Record<string, unknown> = {};
    kindOf(limit).options(limit, meta, false, { verboseName: String, nestedChildren: () => ({}) });
    expect(meta).toEqual({ type: 'integer', min_value: 0, max_value: 80 });
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertToOpenApi30 } from '../../../runtime/http/openapi-30.js';

type Json = Record<string, any>;

/** One schema's 3.0 rendering (as a component of a 3.1 document). */
function convertSchema(schema: Json): Json {
  const converted: Json = convertToOpenApi30({ openapi: '3.1.0', components: { schemas: { Thing: schema } } });
  return converted.components.schemas.Thing as Json;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const SUBSCHEMAS = new Set(['schema', 'items', 'not', 'additionalProperties', 'oneOf', 'anyOf', 'allOf']);

/** Every schema of a document by its location: component schemas, `schema` values and their subschemas. */
function* schemasOf(node: unknown, at = '', isSchema = false): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* schemasOf(item, `${at}/${i}`, isSchema);
    return;
  }
  if (!node || typeof node !== 'object') return;
  if (isSchema) yield [at, node as Json];
  for (const [key, value] of Object.entries(node)) {
    if (isSchema && ['default', 'enum', 'example'].includes(key)) continue;
    const isMap = (isSchema && key === 'properties') || (at === '/components' && key === 'schemas');
    if (isMap) {
      for (const [name, schema] of Object.entries(value as Json))
        yield* schemasOf(schema, `${at}/${key}/${name}`, true);
    } else {
      yield* schemasOf(value, `${at}/${key}`, SUBSCHEMAS.has(key));
    }
  }
}

describe('the OpenAPI 3.0.3 rendering, rule by rule', () => {
  it.each([
    ['a nullable type', { type: ['string', 'null'], maxLength: 5 }, { type: 'string', nullable: true, maxLength: 5 }],
    ['a nullable integer', { type: ['integer', 'null'] }, { type: 'integer', nullable: true }],
    ['a nullable object', { type: ['object', 'null'] }, { type: 'object', nullable: true }],
    ['a list of one type', { type: ['number'] }, { type: 'number' }],
    [
      'several types',
      { type: ['string', 'number', 'boolean'], description: 'A value.' },
      { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }], description: 'A value.' },
    ],
    [
      'several types and null',
      { type: ['string', 'integer', 'null'] },
      { anyOf: [{ type: 'string' }, { type: 'integer' }, { enum: [null] }] },
    ],
    ['the null type', { type: 'null' }, { enum: [null] }],
    [
      'the null type described',
      { type: 'null', description: 'Always null.' },
      { enum: [null], description: 'Always null.' },
    ],
    [
      'a reference or null',
      { oneOf: [{ $ref: '#/components/schemas/Other' }, { type: 'null' }], description: 'Or nothing.' },
      { oneOf: [{ $ref: '#/components/schemas/Other' }, { enum: [null] }], description: 'Or nothing.' },
    ],
    [
      'an id, an object or null',
      { anyOf: [{ type: 'integer' }, { type: 'object', properties: { id: { type: 'integer' } } }, { type: 'null' }] },
      { anyOf: [{ type: 'integer' }, { type: 'object', properties: { id: { type: 'integer' } } }, { enum: [null] }] },
    ],
    ['a constant', { type: 'integer', const: 0 }, { type: 'integer', enum: [0] }],
    ['an array without items', { type: 'array', maxItems: 0 }, { type: 'array', maxItems: 0, items: {} }],
    ['a nullable array without items', { type: ['array', 'null'] }, { type: 'array', nullable: true, items: {} }],
    [
      'a tuple',
      { type: 'array', prefixItems: [{ type: 'string' }, { type: ['integer', 'null'] }], minItems: 2, maxItems: 2 },
      {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'integer', nullable: true }] },
        minItems: 2,
        maxItems: 2,
      },
    ],
    [
      'properties named after keywords',
      {
        type: 'object',
        properties: { type: { type: ['string', 'null'] }, const: { type: 'null' }, default: { const: 1 } },
      },
      {
        type: 'object',
        properties: { type: { type: 'string', nullable: true }, const: { enum: [null] }, default: { enum: [1] } },
      },
    ],
    [
      'instances in default, enum and example',
      { type: 'object', default: { type: 'null' }, example: { const: 1 }, enum: [{ type: ['a', 'null'] }] },
      { type: 'object', default: { type: 'null' }, example: { const: 1 }, enum: [{ type: ['a', 'null'] }] },
    ],
  ])('converts %s', (_name, schema, expected) => {
    expect(convertSchema(schema)).toEqual(expected);
  });

  it('declares OpenAPI 3.0.3, copies everything else and leaves its input as it was', () => {
    const input = deepFreeze({
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: { '/x/': { get: { responses: { '200': { description: 'ok' } } } } },
    });
    const output = convertToOpenApi30(input);
    expect(output).toEqual({ ...input, openapi: '3.0.3' });
    expect(output.paths).not.toBe(input.paths);
    expect(input.openapi).toBe('3.1.0');
  });

  it('refuses a list of types beside anyOf, which 3.0 cannot say', () => {
    expect(() => convertSchema({ type: ['string', 'integer'], anyOf: [{ minLength: 1 }, { minimum: 1 }] })).toThrow(
      /anyOf/,
    );
  });
});

describe('the OpenAPI 3.0.3 rendering of the generated document', () => {
  const file = path.resolve(import.meta.dirname, '../../../generated/openapi.json');
  let text: string;
  let original: Json;
  let converted: Json;
  beforeAll(() => {
    text = fs.readFileSync(file, 'utf8');
    original = JSON.parse(text) as Json;
    converted = convertToOpenApi30(original);
  });

  it('is a valid OpenAPI 3.0 document and leaves the 3.1 one as it was', async () => {
    expect(converted.openapi).toBe('3.0.3');
    const result = await new Validator().validate(structuredClone(converted));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(JSON.stringify(original)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('has no list of types, no null type and no const', () => {
    const schemas = [...schemasOf(converted)];
    expect(schemas.length).toBeGreaterThan(10_000);
    for (const [at, schema] of schemas) {
      expect(typeof schema.type === 'string' || schema.type === undefined, at).toBe(true);
      expect(schema.type, at).not.toBe('null');
      expect(schema, at).not.toHaveProperty('const');
    }
  });

  it('marks nullable what had the null type in its list of types, and nothing else', () => {
    const before = new Map(schemasOf(original));
    let nullable = 0;
    for (const [at, schema] of schemasOf(converted)) {
      const type = before.get(at)?.type as unknown;
      const hadNull = Array.isArray(type) && type.includes('null');
      expect(schema.nullable ?? false, at).toBe(hadNull);
      if (hadNull && type.length === 2) expect(schema.type, at).toBe(type.find((t) => t !== 'null'));
      if (hadNull) nullable += 1;
    }
    expect(nullable).toBeGreaterThan(500);
  });

  it('accepts null for exactly the properties the 3.1 document accepts null for (ajv, draft-07 with nullable)', () => {
    const ajv30 = new Ajv({ strict: false });
    const ajv31 = new Ajv2020({ strict: false });
    for (const ajv of [ajv30, ajv31]) addFormats.default(ajv);
    ajv30.addSchema({ ...converted, $id: 'openapi.json' });
    ajv31.addSchema({ ...original, $id: 'openapi.json' });
    const escape = (part: string) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'));
    const accepting: string[] = [];
    // Properties with the same 3.1 schema and the same 3.0 rendering answer alike: each pair is compiled once.
    const answers = new Map<string, boolean>();
    for (const [name, schema] of Object.entries<Json>(original.components.schemas)) {
      for (const property of Object.keys(schema.properties ?? {})) {
        const shape = JSON.stringify([
          schema.properties[property],
          converted.components.schemas[name].properties[property],
        ]);
        const known = answers.get(shape);
        if (known !== undefined) {
          if (known) accepting.push(`${name}.${property}`);
          continue;
        }
        const pointer = `openapi.json#/components/schemas/${escape(name)}/properties/${escape(property)}`;
        const accepts = ajv31.getSchema(pointer)!(null) as boolean;
        expect(ajv30.getSchema(pointer)!(null), `${name}.${property}`).toBe(accepts);
        answers.set(shape, accepts);
        if (accepts) accepting.push(`${name}.${property}`);
      }
    }
    expect(accepting).toEqual(expect.arrayContaining(['Site.tenant', 'Site.latitude', 'Device.primary_ip4']));
    expect(accepting).not.toContain('Site.name');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compileModels } from '../../generator/compile.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Errors of loading and resolving a set of model files, as the CLI prints them. */
function errorsOf(files: Record<string, string>): string[] {
  return compileModels(Object.entries(files).map(([p, text]) => ({ path: p, text }))).errors.map(String);
}

const SITE = `
app: dcim
models:
  region:
    fields:
      name: { type: string, max_length: 100 }
  site:
    fields:
      name: { type: string, max_length: 100 }
      region: { type: fk, to: dcim.region, nullable: true }
`;

describe('model validation', () => {
  it('accepts a valid file', () => {
    expect(errorsOf({ 'models/dcim.yaml': SITE })).toEqual([]);
  });

  it.each([
    [
      'an unknown FK target',
      SITE.replace('to: dcim.region', 'to: dcim.regio'),
      "models/dcim.yaml:10:27: models.site.fields.region.to: unknown model 'dcim.regio'",
    ],
    [
      'an unknown field type',
      SITE.replace('type: fk', 'type: foreignkey'),
      'models/dcim.yaml:10:17: models.site.fields.region.type: must be one of',
    ],
    [
      'an unknown property',
      SITE.replace('nullable: true', 'nullable: true, colour: red'),
      "models/dcim.yaml:10:60: models.site.fields.region: unknown property 'colour'",
    ],
    ['a missing app', SITE.replace('app: dcim', ''), "models/dcim.yaml:3:1: missing property 'app'"],
    [
      'set_null on a non-null FK',
      SITE.replace('nullable: true', 'on_delete: set_null'),
      'models/dcim.yaml:10:44: models.site.fields.region.on_delete: set_null needs a nullable field',
    ],
    [
      'a string without max_length',
      SITE.replace('name: { type: string, max_length: 100 }\n  site', 'name: { type: string }\n  site'),
      "models/dcim.yaml:6:7: models.region.fields.name: a string field needs 'max_length'",
    ],
    [
      'an unknown brief key',
      `${SITE}    brief: [id, nope]\n`,
      "models/dcim.yaml:11:5: models.site.brief: unknown key 'nope'",
    ],
    [
      'an unknown choice set',
      SITE.replace('region: { type: fk, to: dcim.region, nullable: true }', 'status: { type: choice, choices: nope }'),
      "models/dcim.yaml:10:31: models.site.fields.status.choices: unknown choice set 'nope'",
    ],
    [
      'a computed field referenced by something other than an FK to its model',
      SITE.replace(
        'name: { type: string, max_length: 100 }\n  site',
        'name: { type: string, max_length: 100 }\n      sites: { type: computed, function: dcim.x, referenced_by: { model: dcim.site, field: name, otherwise: [] } }\n  site',
      ),
      "models/dcim.yaml:7:85: models.region.fields.sites.referenced_by.field: 'dcim.site.name' is not an fk to dcim.region",
    ],
    [
      'a display template following a path that does not exist',
      `${SITE}    display: ['{name}', '{region.nope}']\n`,
      "models/dcim.yaml:11:5: models.site.display: unknown field 'nope' in 'region.nope'",
    ],
    ['invalid YAML', 'app: [dcim', 'models/dcim.yaml:1:'],
  ])('reports %s with the file, the line, the column and the path', (_name, text, expected) => {
    const errors = errorsOf({ 'models/dcim.yaml': text });
    expect(
      errors.some((e) => e.startsWith(expected)),
      errors.join('\n'),
    ).toBe(true);
  });

  it('reports every error of every file together', () => {
    const errors = errorsOf({
      'models/dcim.yaml': SITE.replace('to: dcim.region', 'to: dcim.regio').replace(
        'max_length: 100 }\n  site',
        'max_length: 100, bogus: 1 }\n  site',
      ),
      'models/extras.yaml': 'app: extras\nmodels:\n  tag:\n    fields:\n      name: { type: strin }\n',
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining("models/dcim.yaml:6:46: models.region.fields.name: unknown property 'bogus'"),
        expect.stringContaining('models/extras.yaml:5:15: models.tag.fields.name.type: must be one of'),
      ]),
    );
  });

  it('makes `npm run generate` exit non-zero and print the errors', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bad-models-'));
    fs.writeFileSync(path.join(dir, 'dcim.yaml'), SITE.replace('to: dcim.region', 'to: dcim.regio'));
    let status = 0;
    let output = '';
    try {
      execFileSync('npx', ['tsx', 'generator/cli.ts', '--models', dir, '--out', path.join(dir, 'out')], {
        cwd: root,
        stdio: 'pipe',
      });
    } catch (error) {
      const e = error as { status: number; stderr: Buffer };
      status = e.status;
      output = e.stderr.toString();
    }
    fs.rmSync(dir, { recursive: true, force: true });
    expect(status).toBe(1);
    expect(output).toContain("models.site.fields.region.to: unknown model 'dcim.regio'");
  });
});

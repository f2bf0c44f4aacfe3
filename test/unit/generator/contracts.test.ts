import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLE_CONTRACTS } from '../../../runtime/role-contracts.js';
import type { Role } from '../../../runtime/spec.js';
import type { DomainCatalog } from '../../../generator/contracts.js';
import { errorsOf, shop } from './model-files.js';

/**
 * What the generator checks on behalf of the runtime (runtime/role-contracts.ts and the domain function
 * table): a mistake fails generation with one error at the YAML line, not a request at run time.
 */

const ATTEMPT = `  attempt:
    roles: [sign_in_attempt]
    fields:
      address: { type: string, max_length: 50 }
      username: { type: string, max_length: 150 }
      time: { type: datetime }
`;

describe('role contracts', () => {
  it('accept a model that has every field of its role', () => {
    expect(errorsOf(shop(ATTEMPT))).toEqual([]);
  });

  it('report a missing field at the role', () => {
    expect(errorsOf(shop(ATTEMPT.replace('      time: { type: datetime }\n', '')))).toEqual([
      "models/shop.yaml:4:13: models.attempt.roles.0: role 'sign_in_attempt' needs a field 'time' (a datetime field)",
    ]);
  });

  it('report a renamed field once, as missing', () => {
    expect(errorsOf(shop(ATTEMPT.replace('username:', 'user_name:')))).toEqual([
      "models/shop.yaml:4:13: models.attempt.roles.0: role 'sign_in_attempt' needs a field 'username' (a string field)",
    ]);
  });

  it('report a field of the wrong kind at its type', () => {
    expect(errorsOf(shop(ATTEMPT.replace('time: { type: datetime }', 'time: { type: date }')))).toEqual([
      "models/shop.yaml:8:15: models.attempt.fields.time.type: role 'sign_in_attempt' needs 'time' to be a datetime field, not date",
    ]);
  });

  it('report a relation to a model other than the one of the role it needs', () => {
    const models = `  tag:
    roles: [tag]
    fields:
      name: { type: string, max_length: 50 }
      slug: { type: slug, max_length: 50 }
      color: { type: color }
      object_types: { type: object_types, default: [] }
  item:
    roles: [tagged_item]
    fields:
      tag: { type: fk, to: shop.other, on_delete: cascade }
      object_type: { type: string, max_length: 100 }
      object_id: { type: bigint }
  other:
    fields:
      name: { type: string, max_length: 50 }
`;
    expect(errorsOf(shop(models))).toEqual([
      "models/shop.yaml:13:24: models.item.fields.tag.to: role 'tagged_item' needs 'tag' to point at 'shop.tag' (role 'tag')",
    ]);
  });

  it('report a role played by two models', () => {
    expect(errorsOf(shop(`${ATTEMPT}${ATTEMPT.replace('attempt:', 'attempt2:')}`))).toEqual([
      "models/shop.yaml:10:13: models.attempt2.roles.0: role 'sign_in_attempt' is already played by 'shop.attempt'",
    ]);
  });
});

describe('domain function names', () => {
  const catalog: DomainCatalog = new Map([
    ['shop.validateItem', 'validator'],
    ['shop.itemTotal', 'compute'],
    ['shop.itemSize', 'derive'],
    ['shop.showItem', 'display'],
    ['shop.itemCreated', 'created'],
    ['shop.itemUpdated', 'updated'],
  ]);
  const item = (lines: string): string =>
    shop(`  item:
    fields:
      name: { type: string, max_length: 50 }
${lines}`);

  it('accept functions that exist with the kind their use needs', () => {
    const yaml = item(`      total: { type: computed, function: shop.itemTotal, schema: { type: integer } }
      size: { type: derived, function: shop.itemSize, uses: [name], schema: { type: integer } }
    validators: [shop.validateItem]
    display: { function: shop.showItem, uses: [name] }
`);
    expect(errorsOf(yaml, catalog)).toEqual([]);
  });

  it('report an unknown function at the YAML line that names it', () => {
    expect(errorsOf(item('    validators: [shop.validateItem, shop.validateItme]\n'), catalog)).toEqual([
      "models/shop.yaml:6:37: models.item.validators.1: unknown domain function 'shop.validateItme'",
    ]);
  });

  it('report a function of the wrong kind', () => {
    const yaml = item('      total: { type: computed, function: shop.validateItem, schema: { type: integer } }\n');
    expect(errorsOf(yaml, catalog)).toEqual([
      "models/shop.yaml:6:32: models.item.fields.total.function: 'shop.validateItem' is a validator function, not a compute function",
    ]);
    const derived = item('      size: { type: derived, function: shop.itemTotal, uses: [name] }\n');
    expect(errorsOf(derived, catalog)).toEqual([
      "models/shop.yaml:6:30: models.item.fields.size.function: 'shop.itemTotal' is a compute function, not a derive function",
    ]);
  });

  it('check write hooks: created and updated functions, each of its kind', () => {
    expect(errorsOf(item('    hooks: { created: shop.itemCreated, updated: shop.itemUpdated }\n'), catalog)).toEqual(
      [],
    );
    expect(errorsOf(item('    hooks: { created: shop.itemUpdated, updated: shop.itemCreated }\n'), catalog)).toEqual([
      "models/shop.yaml:6:14: models.item.hooks.created: 'shop.itemUpdated' is an updated function, not a created function",
      "models/shop.yaml:6:41: models.item.hooks.updated: 'shop.itemCreated' is a created function, not an updated function",
    ]);
    expect(errorsOf(item('    hooks: { updated: shop.itemSaved }\n'), catalog)).toEqual([
      "models/shop.yaml:6:14: models.item.hooks.updated: unknown domain function 'shop.itemSaved'",
    ]);
  });

  it('are reported beside other errors of the same file, each once', () => {
    const yaml = item(
      '      total: { type: computed, function: shop.nope, schema: { type: integer } }\n    ordering: [nope]\n',
    );
    expect(errorsOf(yaml, catalog)).toEqual([
      "models/shop.yaml:7:5: models.item.ordering: unknown field 'nope'",
      "models/shop.yaml:6:32: models.item.fields.total.function: unknown domain function 'shop.nope'",
    ]);
  });
});

/**
 * The contracts cover the fields the runtime names: every `column('…')` or `fields.get('…')` in the files
 * that work on role models names a field of those roles' contracts, so that a field the runtime starts to
 * rely on is added to the contract (and so checked at generation) rather than only found at run time.
 */
describe('the role contracts cover what the runtime names', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  it.each<[string, Role[]]>([
    ['runtime/events/tasks.ts', ['background_task']],
    ['runtime/events/table-queue.ts', ['background_task']],
    ['runtime/events/enqueue.ts', ['background_task']],
    ['runtime/events/housekeeping.ts', ['background_task', 'change_record']],
    ['runtime/http/pages/tasks.ts', ['background_task']],
    ['runtime/events/worker.ts', ['worker']],
    ['runtime/events/watch.ts', ['worker']],
    ['runtime/http/roots.ts', ['worker']],
    ['runtime/auth/throttle.ts', ['sign_in_attempt']],
    ['runtime/rest/filter-relations.ts', ['change_record']],
    ['runtime/rest/custom-field-definitions.ts', ['custom_field']],
    ['runtime/rest/custom-field-changes.ts', ['custom_field']],
    ['runtime/auth/grants.ts', ['object_permission', 'user']],
    ['runtime/auth/sessions.ts', ['user']],
    ['runtime/http/pages/sign-in.ts', ['user']],
    ['runtime/http/account.ts', ['user']],
    ['runtime/http/pages/tokens.ts', ['token']],
  ])('%s', (file, roles) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const named = [...text.matchAll(/(?:\bcolumn|\bc|fields\.get)\('([a-z_]+)'\)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    const known = new Set(roles.flatMap((role) => Object.keys(ROLE_CONTRACTS[role])));
    expect(named.filter((name) => !known.has(name))).toEqual([]);
  });
});

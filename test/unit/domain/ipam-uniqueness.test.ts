import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../runtime/db/connect.js';
import { migrate } from '../../../runtime/db/migrate.js';
import { validateAggregate, validateIpAddress, validatePrefix } from '../../../runtime/domain/ipam.js';
import { parseIp } from '../../../runtime/rest/ip.js';
import { migrations } from '../support/models.js';
import { errorsAfter, writeItem } from './write-item.js';

/**
 * Unique IP space (NetBox Prefix/IPAddress.clean with get_duplicates, ENFORCE_GLOBAL_UNIQUE and
 * VRF.enforce_unique) and aggregates that may not overlap, on an in-memory SQLite database.
 */

let db: Database;

/** The stored columns of an IP field: its text and the hidden family, range and length. */
function ipColumns(column: string, text: string): Record<string, unknown> {
  const ip = parseIp(text)!;
  return {
    [column]: text,
    [`${column}_family`]: ip.family,
    [`${column}_start`]: column === 'address' ? ip.host : ip.start,
    [`${column}_end`]: column === 'address' ? ip.host : ip.end,
    [`${column}_len`]: ip.len,
  };
}

beforeAll(async () => {
  db = connectDatabase('sqlite::memory:');
  await migrate(db, migrations);
  const q = db.knex;
  await q.raw('PRAGMA foreign_keys = OFF');
  await q('ipam_vrf').insert([
    { id: 1, name: 'Blue', rd: '65000:1', enforce_unique: true },
    { id: 2, name: 'Red', rd: null, enforce_unique: false },
    { id: 3, name: 'Green', rd: null, enforce_unique: true },
  ]);
  await q('ipam_prefix').insert([
    { id: 1, vrf_id: null, ...ipColumns('prefix', '10.0.0.0/8') },
    { id: 2, vrf_id: 1, ...ipColumns('prefix', '10.1.0.0/16') },
    { id: 3, vrf_id: 2, ...ipColumns('prefix', '10.2.0.0/16') },
  ]);
  await q('ipam_ipaddress').insert([
    { id: 1, vrf_id: null, role: '', ...ipColumns('address', '192.0.2.1/24') },
    { id: 2, vrf_id: null, role: 'anycast', ...ipColumns('address', '192.0.2.9/24') },
    { id: 3, vrf_id: 3, role: '', ...ipColumns('address', '198.51.100.1/24') },
  ]);
  await q('ipam_aggregate').insert([
    { id: 1, rir_id: 1, ...ipColumns('prefix', '10.0.0.0/8') },
    { id: 2, rir_id: 1, ...ipColumns('prefix', '2001:db8::/32') },
  ]);
});

afterAll(async () => {
  await db.close();
});

const check = async (
  validate: typeof validatePrefix,
  label: string,
  values: Record<string, unknown>,
  options: { id?: number; globalUnique?: boolean } = {},
): Promise<Record<string, unknown>> => {
  const item = writeItem(label, values, {
    q: db.knex,
    settings: { ENFORCE_GLOBAL_UNIQUE: options.globalUnique ?? true },
    ...(options.id ? { id: options.id, existing: values } : {}),
  });
  await validate(item);
  return errorsAfter(item);
};

describe('prefixes', () => {
  it.each([
    ['a new global prefix', { prefix: '10.9.0.0/16', vrf: null }, {}, {}],
    [
      'a global duplicate',
      { prefix: '10.0.0.0/8', vrf: null },
      {},
      { prefix: ['Duplicate prefix found in global table: 10.0.0.0/8'] },
    ],
    [
      'a global duplicate without ENFORCE_GLOBAL_UNIQUE',
      { prefix: '10.0.0.0/8', vrf: null },
      { globalUnique: false },
      {},
    ],
    ['the prefix itself on update', { prefix: '10.0.0.0/8', vrf: null }, { id: 1 }, {}],
    [
      'a duplicate in a unique VRF, named with its RD',
      { prefix: '10.1.0.0/16', vrf: 1 },
      {},
      { prefix: ['Duplicate prefix found in VRF Blue (65000:1): 10.1.0.0/16'] },
    ],
    ['a duplicate in a VRF that allows them', { prefix: '10.2.0.0/16', vrf: 2 }, {}, {}],
    ['a global prefix also in a VRF', { prefix: '10.1.0.0/16', vrf: null }, {}, {}],
  ])('%s', async (_name, values, options, errors) => {
    expect(await check(validatePrefix, 'ipam.prefix', values, options)).toEqual(errors);
  });
});

describe('IP addresses', () => {
  const duplicate = (table: string, address: string) => ({
    address: [`Duplicate IP address found in ${table}: ${address}`],
  });
  it.each([
    ['a new address', { address: '192.0.2.2/24', vrf: null }, {}, {}],
    [
      'the same host with another mask',
      { address: '192.0.2.1/32', vrf: null },
      {},
      duplicate('global table', '192.0.2.1/24'),
    ],
    ['without ENFORCE_GLOBAL_UNIQUE', { address: '192.0.2.1/24', vrf: null }, { globalUnique: false }, {}],
    ['the address itself on update', { address: '192.0.2.1/24', vrf: null }, { id: 1 }, {}],
    ['a shared role beside a shared role', { address: '192.0.2.9/24', vrf: null, role: 'vip' }, {}, {}],
    [
      'a plain address beside a shared one',
      { address: '192.0.2.9/24', vrf: null, role: '' },
      {},
      duplicate('global table', '192.0.2.9/24'),
    ],
    [
      'a shared role beside a plain address',
      { address: '192.0.2.1/24', vrf: null, role: 'anycast' },
      {},
      duplicate('global table', '192.0.2.1/24'),
    ],
    [
      'a duplicate in a unique VRF without RD',
      { address: '198.51.100.1/25', vrf: 3 },
      {},
      duplicate('VRF Green', '198.51.100.1/24'),
    ],
    ['the same host in another VRF', { address: '198.51.100.1/24', vrf: 1 }, {}, {}],
  ])('%s', async (_name, values, options, errors) => {
    expect(await check(validateIpAddress, 'ipam.ipaddress', { status: 'active', ...values }, options)).toEqual(errors);
  });
});

describe('aggregates', () => {
  it.each([
    ['a separate aggregate', '172.16.0.0/12', {}, {}],
    [
      'one inside an existing aggregate',
      '10.20.0.0/16',
      {},
      { prefix: ['Aggregates cannot overlap. 10.20.0.0/16 is already covered by an existing aggregate (10.0.0.0/8).'] },
    ],
    [
      'an existing aggregate itself',
      '10.0.0.0/8',
      {},
      { prefix: ['Aggregates cannot overlap. 10.0.0.0/8 is already covered by an existing aggregate (10.0.0.0/8).'] },
    ],
    [
      'one around an existing aggregate',
      '10.0.0.0/7',
      {},
      { prefix: ['Prefixes cannot overlap aggregates. 10.0.0.0/7 covers an existing aggregate (10.0.0.0/8).'] },
    ],
    [
      'an IPv6 aggregate inside another',
      '2001:db8:1::/48',
      {},
      {
        prefix: [
          'Aggregates cannot overlap. 2001:db8:1::/48 is already covered by an existing aggregate (2001:db8::/32).',
        ],
      },
    ],
    // ::/8 spans the zero-extended digits of every IPv4 aggregate; the family keeps them apart.
    ['an IPv6 aggregate over the digits of IPv4 ones', '::/8', {}, {}],
    ['the aggregate itself on update', '10.0.0.0/8', { id: 1 }, {}],
  ])('%s', async (_name, prefix, options, errors) => {
    expect(await check(validateAggregate, 'ipam.aggregate', { prefix }, options)).toEqual(errors);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { checkVirtualMachineDisk, sumVirtualDisks } from '../../../runtime/domain/virtualization.js';
import { errorsAfter, schema, settingsWith, sqlBuilder, writeItem } from './write-item.js';

/** A virtual machine's disk and its virtual disks (NetBox's VirtualMachine.clean() and update_virtualmachine_disk). */
describe('virtual machine disk totals', () => {
  let q: Knex;
  beforeAll(async () => {
    q = sqlBuilder();
    await q.schema.createTable('virtualization_virtualmachine', (t) => {
      t.integer('id').primary();
      t.integer('disk').nullable();
    });
    await q.schema.createTable('virtualization_virtualdisk', (t) => {
      t.integer('id').primary();
      t.integer('virtual_machine_id');
      t.integer('size');
    });
    await q('virtualization_virtualmachine').insert([
      { id: 1, disk: 7 },
      { id: 2, disk: 9 },
    ]);
    await q('virtualization_virtualdisk').insert([
      { id: 1, virtual_machine_id: 1, size: 100 },
      { id: 2, virtual_machine_id: 1, size: 28 },
    ]);
  });
  afterAll(async () => q.destroy());

  const vm = (values: Record<string, unknown>, id: number | undefined) =>
    writeItem('virtualization.virtualmachine', values, id === undefined ? { q } : { q, id, existing: values });

  it('lets a machine without disks keep any size, and a new machine is not checked', async () => {
    const item = vm({ disk: 3 }, 2);
    await checkVirtualMachineDisk(item);
    expect(errorsAfter(item)).toEqual({});
    const created = vm({ disk: 1 }, undefined);
    await checkVirtualMachineDisk(created);
    expect(errorsAfter(created)).toEqual({});
  });

  it("gives a machine without a size its disks' total, and refuses another size", async () => {
    const empty = vm({ disk: null }, 1);
    await checkVirtualMachineDisk(empty);
    expect(empty.values.disk).toBe(128);
    const wrong = vm({ disk: 100 }, 1);
    await checkVirtualMachineDisk(wrong);
    expect(errorsAfter(wrong)).toEqual({
      disk: ['The specified disk size (100) must match the aggregate size of assigned virtual disks (128).'],
    });
  });

  it('stores the total on each machine whose disks were written, null when none are left', async () => {
    const ctx = { q, schema, dialect: 'sqlite' as const, settings: settingsWith() };
    const disks = schema.model('virtualization.virtualdisk');
    await sumVirtualDisks(ctx, disks, [
      { id: 1, values: { virtual_machine: 1 } },
      { id: 3, values: { virtual_machine: 2 } },
    ]);
    expect(await q('virtualization_virtualmachine').orderBy('id').select('id', 'disk')).toEqual([
      { id: 1, disk: 128 },
      { id: 2, disk: null },
    ]);
  });
});

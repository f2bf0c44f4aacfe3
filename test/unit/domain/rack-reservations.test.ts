import { describe, expect, it } from 'vitest';
import { rackUnits, unitConflicts } from '../../../runtime/domain/racks.js';

describe('rack reservation units', () => {
  it('a rack has its integer units from its starting unit', () => {
    expect(rackUnits(1, 3)).toEqual([1, 2, 3]);
    expect(rackUnits(10, 2)).toEqual([10, 11]);
    expect(rackUnits(1, 0)).toEqual([]);
  });

  it('reports units outside the rack and units another reservation holds, in the order given', () => {
    expect(unitConflicts([3, 1, 42], [1, 2, 3], [])).toEqual({ invalid: [42], reserved: [] });
    expect(unitConflicts([5, 4, 6], rackUnits(1, 42), [4, 5])).toEqual({ invalid: [], reserved: [5, 4] });
    expect(unitConflicts([7], rackUnits(1, 42), [1, 2])).toEqual({ invalid: [], reserved: [] });
  });
});

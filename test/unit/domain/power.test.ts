import { describe, expect, it } from 'vitest';
import { powerDraw, type PowerGraph, type PowerOutletNode, type PowerPortNode } from '../../../runtime/domain/power.js';

/** NetBox 4.6.8 dcim/tests/test_models.py PowerPortDrawTestCase, on graphs instead of cabled objects. */

const port = (id: number, allocated: number | null = null, maximum: number | null = null, threePhaseFeed = false) =>
  ({ id, allocated_draw: allocated, maximum_draw: maximum, threePhaseFeed }) satisfies PowerPortNode;
const outlet = (id: number, power_port: number, downstream: number[], feed_leg: 'A' | 'B' | 'C' | null = null) =>
  ({ id, power_port, feed_leg, downstream }) satisfies PowerOutletNode;
const graph = (ports: PowerPortNode[], outlets: PowerOutletNode[]): PowerGraph => ({
  ports: new Map(ports.map((p) => [p.id, p])),
  outlets,
});

describe('powerDraw (PowerPort.get_power_draw)', () => {
  it('test_direct_draw_aggregation: [main] -- [outlet] --C-- [psu]', () => {
    const g = graph([port(1), port(2, 200, 400)], [outlet(10, 1, [2])]);
    expect(powerDraw(g, 1)).toEqual({ allocated: 200, maximum: 400, outlet_count: 1, legs: [] });
  });

  it('test_recursive_draw_through_intermediate_powerport: auto-mode fuses pass their draw up', () => {
    // [main] -- [feedback] --C-- [fuse] -- [outlet] --C-- [psu]
    const g = graph([port(1), port(2), port(3, 150, 300)], [outlet(10, 1, [2]), outlet(11, 2, [3])]);
    expect(powerDraw(g, 2)).toMatchObject({ allocated: 150, maximum: 300 });
    expect(powerDraw(g, 1)).toMatchObject({ allocated: 150, maximum: 300 });
  });

  it('test_intermediate_manual_override_stops_recursion', () => {
    const g = graph([port(1), port(2, 500, 1000), port(3, 150, 300)], [outlet(10, 1, [2]), outlet(11, 2, [3])]);
    expect(powerDraw(g, 1)).toMatchObject({ allocated: 500, maximum: 1000 });
  });

  it('test_three_phase_per_leg_aggregation', () => {
    const g = graph(
      [port(1, null, null, true), port(2, 100, 200), port(3, 200, 400), port(4, 300, 600)],
      [outlet(10, 1, [2], 'A'), outlet(11, 1, [3], 'B'), outlet(12, 1, [4], 'C')],
    );
    expect(powerDraw(g, 1)).toEqual({
      allocated: 600,
      maximum: 1200,
      outlet_count: 3,
      legs: [
        { name: 'A', allocated: 100, maximum: 200, outlet_count: 1 },
        { name: 'B', allocated: 200, maximum: 400, outlet_count: 1 },
        { name: 'C', allocated: 300, maximum: 600, outlet_count: 1 },
      ],
    });
  });

  it('test_three_phase_per_leg_recursive_aggregation', () => {
    const g = graph(
      [port(1, null, null, true), port(2), port(3, 100, 200)],
      [outlet(10, 1, [2], 'A'), outlet(11, 2, [3], 'A')],
    );
    const draw = powerDraw(g, 1);
    expect(draw).toMatchObject({ allocated: 100, maximum: 200 });
    expect(draw.legs.map((l) => [l.name, l.allocated, l.maximum])).toEqual([
      ['A', 100, 200],
      ['B', 0, 0],
      ['C', 0, 0],
    ]);
  });

  it('counts every outlet, cabled or not, and survives a cycle', () => {
    const g = graph([port(1), port(2)], [outlet(10, 1, [2]), outlet(11, 2, [1]), outlet(12, 1, [])]);
    expect(powerDraw(g, 1)).toEqual({ allocated: 0, maximum: 0, outlet_count: 2, legs: [] });
  });

  it('reports the administratively defined values of a port that has them', () => {
    const g = graph([port(1, 50, null)], [outlet(10, 1, [])]);
    expect(powerDraw(g, 1)).toEqual({ allocated: 50, maximum: 0, outlet_count: 1, legs: [] });
  });
});

import { describe, expect, it } from 'vitest';
import {
  evaluateExpression,
  ExpressionError,
  expressionPaths,
  parseExpression,
  pythonRound,
  pythonText,
  truthy,
} from '../../../runtime/expression.js';

/** The expression language of model rules: parsing, the paths an expression reads, Python's semantics. */

const VALUES: Record<string, unknown> = {
  voltage: 120,
  negative: -48,
  amperage: 15,
  max_utilization: 80,
  phase: 'three-phase',
  supply: 'ac',
  position: 1.3,
  half: 2.5,
  rack: 7,
  nothing: null,
  empty: '',
  'device_type.u_height': 0,
  'device_type.subdevice_role': 'child',
  id: null,
};

const run = (text: string, values: Record<string, unknown> = VALUES): unknown =>
  evaluateExpression(parseExpression(text), (path) => values[path.join('.')]);

describe('evaluation', () => {
  it.each([
    ['voltage', 120],
    ['voltage < 0', false],
    ["negative < 0 and supply == 'ac'", true],
    ["negative < 0 and supply == 'dc'", false],
    ['position % 0.5 != 0', true],
    ['half % 0.5', 0],
    ['position and device_type.u_height == 0', true],
    ["rack and device_type.subdevice_role == 'child'", true],
    ['not rack', false],
    ['not nothing', true],
    ['nothing or empty or 3', 3],
    ['nothing == null', true],
    ['nothing == None', true],
    ['id == rack', false],
    ['rack == 7.0', true],
    ["phase in ['single-phase', 'three-phase']", true],
    ["phase not in ['single-phase', 'three-phase']", false],
    ["'three' in phase", true],
    ['-voltage + 20', -100],
    ['voltage - amperage * 2', 90],
    ['(voltage - amperage) * 2', 210],
    ['voltage / 0', null],
    ['nothing * 2', null],
    ['nothing < 3', false],
    ["1.732 if phase == 'three-phase' else 1", 1.732],
    ["'a' if nothing else 'b' if rack else 'c'", 'b'],
    ['abs(negative)', 48],
    ['round(abs(voltage) * amperage * (max_utilization / 100) * 1.732)', 2494],
    ['round(half)', 2],
    ['[1, voltage]', [1, 120]],
    ['true and False', false],
  ])('%s → %j', (text, expected) => {
    expect(run(text)).toEqual(expected);
  });

  it('computes NetBox power feed figures (PowerFeed.save)', () => {
    const power = 'round(abs(voltage) * amperage * (max_utilization / 100) * (1.732 if phase == phases else 1))';
    const of = (voltage: number, amperage: number, utilization: number, phase: string): unknown =>
      run(power, { voltage, amperage, max_utilization: utilization, phase, phases: 'three-phase' });
    expect(of(120, 15, 80, 'single-phase')).toBe(1440);
    expect(of(208, 30, 80, 'three-phase')).toBe(8646);
    expect(of(-48, 20, 100, 'single-phase')).toBe(960);
  });
});

describe("Python's semantics", () => {
  it.each([
    [null, false],
    [undefined, false],
    [0, false],
    ['', false],
    [[], false],
    [false, false],
    [0.5, true],
    ['0', true],
    [[0], true],
  ])('truth of %j is %s', (value, expected) => {
    expect(truthy(value)).toBe(expected);
  });

  it.each([
    [0.5, 0],
    [1.5, 2],
    [2.5, 2],
    [-0.5, 0],
    [2.4, 2],
    [2.6, 3],
  ])('round(%d) is %d (halves to even)', (value, expected) => {
    expect(pythonRound(value)).toBe(expected);
  });

  it('prints values as str() does', () => {
    expect([null, true, false, 3, 'R1'].map(pythonText)).toEqual(['None', 'True', 'False', '3', 'R1']);
  });
});

describe('parsing', () => {
  it('lists the paths an expression reads, each once', () => {
    expect(expressionPaths(parseExpression('rack and rack.site == power_panel.site or rack'))).toEqual([
      ['rack'],
      ['rack', 'site'],
      ['power_panel', 'site'],
    ]);
  });

  it.each([
    ['voltage <', 'unexpected end of expression', 9],
    ['(voltage', "expected ')'", 8],
    ['voltage == 1 2', "unexpected '2'", 13],
    ['voltage ! 1', "unexpected character '!'", 8],
    ["1 if voltage 'x'", "expected 'else'", 13],
    ['and', "unexpected 'and'", 0],
    ["'open", "unexpected character '''", 0],
  ])('%s: %s at offset %d', (text, message, offset) => {
    let error: unknown;
    try {
      parseExpression(text);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ExpressionError);
    expect((error as ExpressionError).message).toBe(message);
    expect((error as ExpressionError).offset).toBe(offset);
  });
});

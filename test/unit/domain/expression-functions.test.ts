import { describe, expect, it } from 'vitest';
import { evaluateExpression, ExpressionError, parseExpression } from '../../../runtime/expression.js';
import { compileTemplate } from '../../../runtime/display-template.js';

/** The functions of rule expressions that plugins asked for (issue 27), and display templates' escapes. */

const run = (text: string, value: unknown): unknown =>
  evaluateExpression(parseExpression(text), (path) => (path[0] === 'value' ? value : null));

describe('typed validation functions', () => {
  it.each([
    ['is_ipv4(value)', '192.0.2.1', true],
    ['is_ipv4(value)', '192.0.2.256', false],
    ['is_ipv4(value)', '192.0.2.1/24', false],
    ['is_ipv4(value)', '2001:db8::1', false],
    ['is_ipv4(value)', null, false],
    ['is_ipv6(value)', '2001:db8::1', true],
    ['is_ipv6(value)', '192.0.2.1', false],
    ['is_hostname(value)', 'ns1.example.com', true],
    ['is_hostname(value)', 'ns1.example.com.', true],
    ['is_hostname(value)', 'xn--bcher-kva.example', true],
    ['is_hostname(value)', '-ns1.example.com', false],
    ['is_hostname(value)', 'ns1..example.com', false],
    ['is_hostname(value)', 'under_score.example', false],
    ['is_hostname(value)', `${'a'.repeat(64)}.example`, false],
    ['is_hostname(value)', Array.from({ length: 64 }, () => 'abc').join('.'), false],
    ['is_hostname(value)', '', false],
    ["matches(value, '[a-z]+')", 'abc', true],
    ["matches(value, '[a-z]+')", 'abc1', false],
    ["matches(value, 'a|b')", 'b', true],
    ["matches(value, 'a|b')", 'ab', false],
    ["matches(value, '(a+)+$')", `${'a'.repeat(50_000)}!`, false],
    ["matches(value, 'x')", 7, false],
  ])('%s of %j is %s', (text, value, expected) => {
    expect(run(text, value)).toBe(expected);
  });

  it('refuses patterns that are no constant or need backtracking, with their column', () => {
    expect(() => parseExpression('matches(value, value)')).toThrow(ExpressionError);
    expect(() => parseExpression("matches(value, '(?=a)')")).toThrow(/Invalid regular expression/);
    expect(() => parseExpression('is_ipv4(value, value)')).toThrow("expected ')'");
  });
});

describe('now()', () => {
  it('is the current time as a datetime field stores it, later on each call', () => {
    const first = run('now()', null) as string;
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect((run('now()', null) as string) > first).toBe(true);
  });
});

describe('display templates', () => {
  const fill = (template: string, values: Record<string, unknown>): string =>
    compileTemplate(template).fill((name) => values[name]);

  it('shows [[ and ]] as brackets and truncates as Django’s truncatechars', () => {
    const values = { name: 'www', type: 'A', value: '192.0.2.1', ttl: null };
    expect(fill('{name} [[{type}]] {value|truncate:20}', values)).toBe('www [A] 192.0.2.1');
    expect(fill('{name} [[{type}]] {value|truncate:5}', values)).toBe('www [A] 192.…');
    expect(fill('{name}[ [[{ttl}]]]', values)).toBe('www');
    expect(fill('{name}[ [[{type}]]]', values)).toBe('www [A]');
    expect(fill('{value|truncate:1}', values)).toBe('…');
    expect(compileTemplate('{name} [[{type}]] {value|truncate:20}').fields).toEqual(['name', 'type', 'value']);
  });
});

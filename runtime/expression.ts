/**
 * The expression language of model rules (`when:`, `invalid:`, `to:`): a small, Python-flavoured language so
 * that conditions read like the `clean()` methods they come from. The generator parses every expression and
 * checks its field paths; the runtime evaluates the parsed form against an object's values.
 *
 *     position and device_type.u_height == 0
 *     voltage < 0 and supply == 'ac'
 *     round(abs(voltage) * amperage * max_utilization / 100 * (1.732 if phase == 'three-phase' else 1))
 *
 * Operands: numbers, 'strings', null (or None), true/false, [lists], field paths (`rack.site`, following
 * foreign keys; null when a key on the way is empty) and `id` (the object's id, null while creating).
 * Operators, loosest first: `a if c else b`, `or`, `and`, `not`, comparisons (`== != < <= > >= in`, `not in`),
 * `+ -`, `* / %`, unary `-`. Functions: `abs(x)`, `round(x)` (Python's: halves to even); `now()` (the current
 * time, as a datetime field stores it); `is_ipv4(x)`, `is_ipv6(x)` (an address without a mask), `is_hostname(x)`
 * (RFC 1123 labels of letters, digits and hyphens, 63 characters each, 253 in all, an optional final dot) and
 * `matches(x, 'pattern')` (the whole text matches an RE2 pattern, linear in time; the pattern is a string
 * constant, checked when the expression is parsed), each false on null. Truth is Python's: null, false, 0, ''
 * and [] are false. Arithmetic on null gives null; an ordering comparison with null is false.
 */

import { isIP } from 'node:net';
import type { RE2JS } from 're2js';
import { now } from './db/clock.js';
import { compileLinearRegex, RegexError } from './db/regex.js';

export type Expression =
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'path'; path: string[] }
  | { kind: 'list'; items: Expression[] }
  | { kind: 'not' | 'negate'; operand: Expression }
  | { kind: 'and' | 'or'; left: Expression; right: Expression }
  | { kind: 'compare'; op: CompareOp; left: Expression; right: Expression }
  | { kind: 'arithmetic'; op: '+' | '-' | '*' | '/' | '%'; left: Expression; right: Expression }
  | { kind: 'if'; test: Expression; then: Expression; otherwise: Expression }
  | { kind: 'call'; name: FunctionName; args: Expression[] };

type FunctionName = 'abs' | 'round' | 'now' | 'is_ipv4' | 'is_ipv6' | 'is_hostname' | 'matches';

type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';

/** A syntax error, with the offset in the expression's text where it was found. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|'((?:[^'\\]|\\.)*)'|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|(==|!=|<=|>=|[-+*/%<>()[\],]))/y;
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'if', 'else', 'null', 'None', 'true', 'True', 'false', 'False']);
/** Functions by name: the number of arguments. */
const FUNCTIONS = new Map<string, number>([
  ['abs', 1],
  ['round', 1],
  ['now', 0],
  ['is_ipv4', 1],
  ['is_ipv6', 1],
  ['is_hostname', 1],
  ['matches', 2],
]);

type Token = { type: 'number' | 'string' | 'name' | 'op' | 'end'; text: string; at: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(text);
    if (!match) {
      const rest = text.slice(at);
      throw new ExpressionError(
        `unexpected character '${rest.trim()[0] ?? ''}'`,
        at + rest.length - rest.trimStart().length,
      );
    }
    const start = match.index + match[0].length - match[0].trimStart().length;
    if (match[1] !== undefined) tokens.push({ type: 'number', text: match[1], at: start });
    else if (match[2] !== undefined) tokens.push({ type: 'string', text: match[2].replace(/\\(.)/g, '$1'), at: start });
    else if (match[3] !== undefined) tokens.push({ type: 'name', text: match[3], at: start });
    else tokens.push({ type: 'op', text: match[4]!, at: start });
    at = TOKEN.lastIndex;
  }
  tokens.push({ type: 'end', text: '', at: text.length });
  return tokens;
}

/** Parses an expression; throws an `ExpressionError` on bad syntax. */
export function parseExpression(text: string): Expression {
  const tokens = tokenize(text);
  let index = 0;
  const peek = (): Token => tokens[index]!;
  const next = (): Token => tokens[index++]!;
  const accept = (text: string): boolean => {
    const token = peek();
    if ((token.type === 'op' || token.type === 'name') && token.text === text) {
      index += 1;
      return true;
    }
    return false;
  };
  const expect = (text: string): void => {
    if (!accept(text)) throw new ExpressionError(`expected '${text}'`, peek().at);
  };

  const conditional = (): Expression => {
    const value = or();
    if (!accept('if')) return value;
    const test = or();
    expect('else');
    return { kind: 'if', test, then: value, otherwise: conditional() };
  };
  const or = (): Expression => {
    let left = and();
    while (accept('or')) left = { kind: 'or', left, right: and() };
    return left;
  };
  const and = (): Expression => {
    let left = not();
    while (accept('and')) left = { kind: 'and', left, right: not() };
    return left;
  };
  const not = (): Expression => (accept('not') ? { kind: 'not', operand: not() } : compare());
  const compare = (): Expression => {
    const left = sum();
    const token = peek();
    if (token.type === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(token.text)) {
      index += 1;
      return { kind: 'compare', op: token.text as CompareOp, left, right: sum() };
    }
    if (accept('in')) return { kind: 'compare', op: 'in', left, right: sum() };
    if (token.type === 'name' && token.text === 'not' && tokens[index + 1]?.text === 'in') {
      index += 2;
      return { kind: 'compare', op: 'not in', left, right: sum() };
    }
    return left;
  };
  const sum = (): Expression => {
    let left = product();
    for (let token = peek(); token.type === 'op' && (token.text === '+' || token.text === '-'); token = peek()) {
      index += 1;
      left = { kind: 'arithmetic', op: token.text, left, right: product() };
    }
    return left;
  };
  const product = (): Expression => {
    let left = unary();
    for (let token = peek(); token.type === 'op' && ['*', '/', '%'].includes(token.text); token = peek()) {
      index += 1;
      left = { kind: 'arithmetic', op: token.text as '*' | '/' | '%', left, right: unary() };
    }
    return left;
  };
  const unary = (): Expression => (accept('-') ? { kind: 'negate', operand: unary() } : primary());
  const primary = (): Expression => {
    const token = next();
    switch (token.type) {
      case 'number':
        return { kind: 'literal', value: Number(token.text) };
      case 'string':
        return { kind: 'literal', value: token.text };
      case 'op':
        if (token.text === '(') {
          const inner = conditional();
          expect(')');
          return inner;
        }
        if (token.text === '[') {
          const items: Expression[] = [];
          if (!accept(']')) {
            do items.push(conditional());
            while (accept(','));
            expect(']');
          }
          return { kind: 'list', items };
        }
        throw new ExpressionError(`unexpected '${token.text}'`, token.at);
      case 'name': {
        if (token.text === 'null' || token.text === 'None') return { kind: 'literal', value: null };
        if (token.text === 'true' || token.text === 'True') return { kind: 'literal', value: true };
        if (token.text === 'false' || token.text === 'False') return { kind: 'literal', value: false };
        if (KEYWORDS.has(token.text)) throw new ExpressionError(`unexpected '${token.text}'`, token.at);
        const arity = FUNCTIONS.get(token.text);
        if (arity !== undefined && peek().text === '(') {
          index += 1;
          const args: Expression[] = [];
          while (args.length < arity) {
            if (args.length > 0) expect(',');
            args.push(conditional());
          }
          expect(')');
          if (token.text === 'matches') compileMatchPattern(args[1]!, tokens[index - 2]!.at);
          return { kind: 'call', name: token.text as FunctionName, args };
        }
        return { kind: 'path', path: token.text.split('.') };
      }
      case 'end':
        throw new ExpressionError('unexpected end of expression', token.at);
    }
  };

  const result = conditional();
  if (peek().type !== 'end') throw new ExpressionError(`unexpected '${peek().text}'`, peek().at);
  return result;
}

/** The field paths an expression reads, each once, in order of appearance. */
export function expressionPaths(expression: Expression): string[][] {
  const found = new Map<string, string[]>();
  const visit = (node: Expression): void => {
    switch (node.kind) {
      case 'literal':
        return;
      case 'path':
        found.set(node.path.join('.'), node.path);
        return;
      case 'list':
        return node.items.forEach(visit);
      case 'not':
      case 'negate':
        return visit(node.operand);
      case 'and':
      case 'or':
      case 'compare':
      case 'arithmetic':
        visit(node.left);
        return visit(node.right);
      case 'if':
        visit(node.test);
        visit(node.then);
        return visit(node.otherwise);
      case 'call':
        return node.args.forEach(visit);
    }
  };
  visit(expression);
  return [...found.values()];
}

/** Python's truth of a value. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** Equality as the rules mean it: ids and numbers by value, null equal only to null. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return truthy(a) === truthy(b);
  return a === b;
}

/** Python's `round(x)`: to the nearest integer, halves to the even one. */
export function pythonRound(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction === 0.5) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(value);
}

/** Evaluates a parsed expression; `read` gives the value at a field path (already loaded). */
export function evaluateExpression(expression: Expression, read: (path: readonly string[]) => unknown): unknown {
  const evaluate = (node: Expression): unknown => {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'path':
        return read(node.path) ?? null;
      case 'list':
        return node.items.map(evaluate);
      case 'not':
        return !truthy(evaluate(node.operand));
      case 'negate': {
        const value = evaluate(node.operand);
        return value === null ? null : -Number(value);
      }
      case 'and': {
        const left = evaluate(node.left);
        return truthy(left) ? evaluate(node.right) : left;
      }
      case 'or': {
        const left = evaluate(node.left);
        return truthy(left) ? left : evaluate(node.right);
      }
      case 'if':
        return truthy(evaluate(node.test)) ? evaluate(node.then) : evaluate(node.otherwise);
      case 'compare':
        return compare(node.op, evaluate(node.left), evaluate(node.right));
      case 'arithmetic': {
        const left = evaluate(node.left);
        const right = evaluate(node.right);
        if (left === null || right === null) return null;
        return arithmetic(node.op, left, right);
      }
      case 'call':
        return call(node.name, node.args.map(evaluate), node.args[1]);
    }
  };
  return evaluate(expression);
}

/** The pattern of `matches(x, 'pattern')`, anchored at both ends; an ExpressionError unless a valid constant. */
function compileMatchPattern(pattern: Expression, at: number): RE2JS {
  if (pattern.kind !== 'literal' || typeof pattern.value !== 'string')
    throw new ExpressionError('the pattern of matches() must be a string constant', at);
  try {
    return compileLinearRegex(`^(?:${pattern.value})$`, 0);
  } catch (error) {
    if (error instanceof RegexError) throw new ExpressionError(`${error.message} in matches()`, at);
    throw error;
  }
}

const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/** RFC 1123 host names: dot-separated labels, 253 characters at most, an optional final dot. */
function isHostname(text: string): boolean {
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => HOST_LABEL.test(label));
}

function call(name: FunctionName, args: unknown[], pattern: Expression | undefined): unknown {
  if (name === 'now') return now();
  const value = args[0];
  switch (name) {
    case 'abs':
      return value === null ? null : Math.abs(Number(value));
    case 'round':
      return value === null ? null : pythonRound(Number(value));
    case 'is_ipv4':
      return typeof value === 'string' && isIP(value) === 4;
    case 'is_ipv6':
      return typeof value === 'string' && isIP(value) === 6;
    case 'is_hostname':
      return typeof value === 'string' && isHostname(value);
    case 'matches':
      return typeof value === 'string' && compileMatchPattern(pattern!, 0).matches(value);
  }
}

function compare(op: CompareOp, left: unknown, right: unknown): boolean {
  switch (op) {
    case '==':
      return sameValue(left, right);
    case '!=':
      return !sameValue(left, right);
    case 'in':
    case 'not in': {
      const found = Array.isArray(right)
        ? right.some((item) => sameValue(left, item))
        : typeof right === 'string' && typeof left === 'string' && right.includes(left);
      return op === 'in' ? found : !found;
    }
    default: {
      if (left === null || right === null) return false;
      const [a, b] =
        typeof left === 'string' && typeof right === 'string' ? [left, right] : [Number(left), Number(right)];
      if (op === '<') return a < b;
      if (op === '<=') return a <= b;
      if (op === '>') return a > b;
      return a >= b;
    }
  }
}

function arithmetic(op: '+' | '-' | '*' | '/' | '%', left: unknown, right: unknown): unknown {
  if (op === '+' && typeof left === 'string' && typeof right === 'string') return left + right;
  const [a, b] = [Number(left), Number(right)];
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? null : a / b;
    case '%':
      // Python's modulo takes the sign of the divisor.
      return b === 0 ? null : ((a % b) + b) % b;
  }
}

/** Python's `str()` of a value, as NetBox's messages print it. */
export function pythonText(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

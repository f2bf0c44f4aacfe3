import type { RE2JS } from 're2js';
import { compilePythonRegex, matchPythonRegex, PythonRegexError } from './python-regex.js';
import { hasOwnKey, isPlainObject, isPythonTruthy, pythonEquals, pythonStr, pythonTypeName } from './python-values.js';

/**
 * NetBox's condition grammar for event rules (extras/conditions.py, reference §13.4): a condition
 * `{attr, value, op?, negate?}` or a set `{"and" | "or": [conditions or sets]}`, validated when a rule is
 * saved and evaluated against an event's `data`. Validation messages are NetBox's own, with Python type
 * names. Where NetBox fails with a server error (a malformed item inside a set's list) a clear message is
 * returned instead, and a `regex` pattern must compile (in RE2, so that it matches in linear time), since one
 * that cannot would never match.
 */

export const CONDITION_OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'regex'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** The operators each type of `value` accepts (NetBox's `Condition.TYPES`). */
const OPERATORS_BY_TYPE: ReadonlyMap<string, readonly ConditionOperator[]> = new Map([
  ['str', ['eq', 'contains', 'regex']],
  ['bool', ['eq', 'contains']],
  ['int', ['eq', 'gt', 'gte', 'lt', 'lte', 'contains']],
  ['float', ['eq', 'gt', 'gte', 'lt', 'lte', 'contains']],
  ['list', ['eq', 'in', 'contains']],
  ['NoneType', ['eq']],
]);

const CONDITION_KEYS = new Set(['attr', 'value', 'op', 'negate']);
const INVALID_LOGIC = "Invalid logic type: must be 'AND' or 'OR'. Please check documentation.";
const INCORRECT_KEYS = 'Incorrect key(s) informed. Please check documentation.';

/** A ruleset that cannot be saved; the message is the one NetBox gives (`{"conditions": [message]}`). */
export class InvalidConditionsError extends Error {}

/** A condition that could not be evaluated against some data (missing key, null on the path, wrong type). */
export class ConditionEvaluationError extends Error {}

/** A compiled ruleset: true when the data matches. Throws ConditionEvaluationError (or PythonRegexError). */
export type ConditionsPredicate = (data: unknown) => boolean;

interface Condition {
  readonly kind: 'condition';
  readonly attr: unknown;
  readonly value: unknown;
  readonly op: ConditionOperator;
  readonly negate: boolean;
  readonly regex: RE2JS | null;
}

interface ConditionSet {
  readonly kind: 'set';
  /** null: a top-level object with several keys, which is one bare condition. */
  readonly logic: 'and' | 'or' | null;
  readonly items: readonly (Condition | ConditionSet)[];
}

/**
 * Checks a ruleset as NetBox does when an event rule is saved. Returns null when valid, else the error
 * message. Empty values (null, `{}`, `[]`, `""`) are valid: like NetBox, such a rule always fires.
 */
export function validateConditions(value: unknown): string | null {
  try {
    compileConditions(value);
    return null;
  } catch (error) {
    if (error instanceof InvalidConditionsError) return error.message;
    throw error;
  }
}

/**
 * Whether `data` (an event's serialized object) satisfies the ruleset. An empty ruleset always matches; an
 * invalid ruleset or an evaluation error (missing key, null intermediate value, wrong type, a value too long for a regex)
 * means no match, as in NetBox, and is passed to `onError` for logging.
 */
export function evaluateConditions(
  ruleset: unknown,
  data: unknown,
  options: { onError?: (error: Error) => void } = {},
): boolean {
  try {
    return compileConditions(ruleset)(data);
  } catch (error) {
    options.onError?.(error as Error);
    return false;
  }
}

/**
 * Validates and compiles a ruleset once (regular expressions included) so that it can be evaluated against
 * many events. Throws InvalidConditionsError with NetBox's message.
 */
export function compileConditions(ruleset: unknown): ConditionsPredicate {
  if (!isPythonTruthy(ruleset)) return () => true;
  const set = parseSet(ruleset);
  return (data) => evaluateNode(set, data);
}

function parseSet(ruleset: unknown): ConditionSet {
  if (!isPlainObject(ruleset)) {
    throw new InvalidConditionsError(`Ruleset must be a dictionary, not ${pythonTypeName(ruleset)}.`);
  }
  const keys = Object.keys(ruleset);
  if (keys.length !== 1) return { kind: 'set', logic: null, items: [parseCondition(ruleset)] };
  const key = keys[0] ?? '';
  const logic = key.toLowerCase();
  if (logic !== 'and' && logic !== 'or') throw new InvalidConditionsError(INVALID_LOGIC);
  const items = ruleset[key];
  if (!Array.isArray(items)) {
    throw new InvalidConditionsError(
      `Invalid value for '${key}': must be a list of conditions, not ${pythonTypeName(items)}.`,
    );
  }
  return {
    kind: 'set',
    logic,
    items: items.map((item) => (isNestedSet(item) ? parseSet(item) : parseCondition(item))),
  };
}

/** Inside a list only lower-case `and`/`or` starts a nested set (NetBox's `is_ruleset`). */
function isNestedSet(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  const keys = Object.keys(item);
  return keys.length === 1 && (keys[0] === 'and' || keys[0] === 'or');
}

/** NetBox's `Condition(**rule)`: keyword binding first, then operator, value type, operator for the type. */
function parseCondition(rule: unknown): Condition {
  if (!isPlainObject(rule)) {
    throw new InvalidConditionsError(`Invalid condition: must be a dictionary, not ${pythonTypeName(rule)}.`);
  }
  const keys = Object.keys(rule);
  if (keys.some((k) => !CONDITION_KEYS.has(k)) || !hasOwnKey(rule, 'attr') || !hasOwnKey(rule, 'value')) {
    throw new InvalidConditionsError(INCORRECT_KEYS);
  }
  const op: unknown = hasOwnKey(rule, 'op') ? rule.op : 'eq';
  if (!CONDITION_OPERATORS.some((known) => known === op)) {
    throw new InvalidConditionsError(
      `Unknown operator: ${pythonStr(op)}. Must be one of: ${CONDITION_OPERATORS.join(', ')}`,
    );
  }
  const operator = op as ConditionOperator;
  const typeName = pythonTypeName(rule.value);
  const allowed = OPERATORS_BY_TYPE.get(typeName);
  if (!allowed) throw new InvalidConditionsError(`Unsupported value type: ${typeName}`);
  if (!allowed.includes(operator)) {
    throw new InvalidConditionsError(`Invalid type for ${operator} operation: ${typeName}`);
  }
  let regex: RE2JS | null = null;
  if (operator === 'regex') {
    try {
      regex = compilePythonRegex(rule.value as string);
    } catch (error) {
      if (error instanceof PythonRegexError) throw new InvalidConditionsError(error.message);
      throw error;
    }
  }
  return {
    kind: 'condition',
    attr: rule.attr,
    value: rule.value,
    op: operator,
    negate: isPythonTruthy(rule.negate ?? false),
    regex,
  };
}

function evaluateNode(node: Condition | ConditionSet, data: unknown): boolean {
  if (node.kind === 'condition') {
    const result = applyOperator(node, resolvePath(data, node.attr));
    return node.negate ? !result : result;
  }
  // Short-circuits like Python's any()/all(): an error after the deciding item is never reached.
  return node.logic === 'or'
    ? node.items.some((item) => evaluateNode(item, data))
    : node.items.every((item) => evaluateNode(item, data));
}

/**
 * Walks a dotted path. A list maps the next key over its items (`tags.slug` → list of slugs); a missing
 * key or a null (or other non-object) value on the way is an evaluation error. The final value may be null.
 */
function resolvePath(data: unknown, attr: unknown): unknown {
  if (typeof attr !== 'string') {
    throw new ConditionEvaluationError(`Invalid key path: ${pythonStr(attr)} (not a string)`);
  }
  const item = (value: unknown, key: string): unknown => {
    if (isPlainObject(value) && hasOwnKey(value, key)) return value[key];
    throw new ConditionEvaluationError(`Invalid key path: ${attr}`);
  };
  let current = data;
  for (const key of attr.split('.')) {
    current = Array.isArray(current) ? current.map((element) => item(element, key)) : item(current, key);
  }
  return current;
}

function applyOperator(condition: Condition, found: unknown): boolean {
  const { op, value, attr } = condition;
  const typeError = (): ConditionEvaluationError =>
    new ConditionEvaluationError(
      `Invalid data type at '${pythonStr(attr)}' for '${op}' evaluation: ${pythonTypeName(found)}`,
    );
  switch (op) {
    case 'eq':
      return pythonEquals(found, value);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (typeof found !== 'number' && typeof found !== 'boolean') throw typeError();
      const [left, right] = [Number(found), value as number];
      if (op === 'gt') return left > right;
      if (op === 'gte') return left >= right;
      return op === 'lt' ? left < right : left <= right;
    }
    case 'in':
      return (value as unknown[]).some((element) => pythonEquals(element, found));
    case 'contains':
      if (typeof found === 'string') {
        if (typeof value !== 'string') throw typeError();
        return found.includes(value);
      }
      if (Array.isArray(found)) return found.some((element) => pythonEquals(element, value));
      if (isPlainObject(found)) {
        if (Array.isArray(value)) throw typeError();
        return typeof value === 'string' && hasOwnKey(found, value);
      }
      throw typeError();
    case 'regex':
      if (typeof found !== 'string' || !condition.regex) throw typeError();
      return matchPythonRegex(condition.regex, found);
  }
}

/**
 * Python value semantics for JSON data, so that event-rule conditions and their error messages behave as in
 * NetBox (which evaluates them in Python). JSON cannot tell `1` from `1.0`, so every integral number counts
 * as an `int`.
 */

/** A JSON object (neither null nor an array nor a class instance such as a Date or a Buffer). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own, enumerable keys only: a key such as `constructor` or `__proto__` never resolves through the prototype. */
export function hasOwnKey(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** The name of the Python type that `json.loads` would produce: str, int, float, bool, list, dict, NoneType. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    default:
      if (Array.isArray(value)) return 'list';
      if (isPlainObject(value)) return 'dict';
      return typeof value;
  }
}

/** Python's truth value (`if value:`). */
export function isPythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's `==`: booleans are integers (`True == 1`), lists and dicts compare element by element. */
export function pythonEquals(a: unknown, b: unknown): boolean {
  const numeric = (v: unknown): v is number | boolean => typeof v === 'number' || typeof v === 'boolean';
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (a === null || a === undefined) return b === null || b === undefined;
  if (typeof a === 'string') return a === b;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => pythonEquals(item, b[i]));
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwnKey(b, k) && pythonEquals(a[k], b[k]));
  }
  return a === b;
}

/** Python's `str(value)`, used where NetBox formats a value into an error message. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's `repr(value)` for JSON values. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return quotePython(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${quotePython(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function quotePython(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replaceAll(quote, `\\${quote}`);
  return `${quote}${escaped}${quote}`;
}

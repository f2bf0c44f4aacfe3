/** Renders JSON-like data as a TypeScript literal (identifier keys unquoted, stable key order as given). */
export function toLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => toLiteral(v, inner));
    const flat = `[${items.join(', ')}]`;
    if (flat.length <= 80 && !flat.includes('\n')) return flat;
    return `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const parts = entries.map(([k, v]) => `${propertyKey(k)}: ${toLiteral(v, inner)}`);
    const flat = `{ ${parts.join(', ')} }`;
    if (flat.length <= 80 && !flat.includes('\n')) return flat;
    return `{\n${parts.map((p) => `${inner}${p},`).join('\n')}\n${indent}}`;
  }
  throw new Error(`cannot render ${typeof value} as a literal`);
}

/** A single-quoted TypeScript string literal. */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : quote(key);
}

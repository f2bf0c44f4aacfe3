/**
 * `json.dumps(value)` as Python writes it with default arguments (what NetBox sends as a webhook's default
 * body): `", "` and `": "` separators and every character outside printable ASCII escaped as `\uXXXX`
 * (`ensure_ascii`). The parsed value is the same as JSON.stringify's; only the bytes differ, and the bytes
 * are what a receiver's signature check covers.
 */
export function dumpJsonLikePython(value: unknown): string {
  return encode(value) ?? 'null';
}

function encode(value: unknown): string | undefined {
  const json = toJsonValue(value);
  if (json === undefined || typeof json === 'function' || typeof json === 'symbol') return undefined;
  if (json === null) return 'null';
  if (typeof json === 'string') return escapeNonAscii(JSON.stringify(json));
  if (typeof json !== 'object') return JSON.stringify(json);
  if (Array.isArray(json)) return `[${json.map((item) => encode(item) ?? 'null').join(', ')}]`;
  const members: string[] = [];
  for (const [key, item] of Object.entries(json)) {
    const encoded = encode(item);
    if (encoded !== undefined) members.push(`${escapeNonAscii(JSON.stringify(key))}: ${encoded}`);
  }
  return `{${members.join(', ')}}`;
}

/** Applies `toJSON` (Dates, Buffers…) as JSON.stringify does. */
function toJsonValue(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return typeof value === 'bigint' ? Number(value) : value;
}

function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Naming helpers shared by the generator stages. */

/** `tenant group` → `TenantGroup`. */
export function toPascalCase(words: string): string {
  return words
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** `tenant group` → `tenantGroup`. */
export function toCamelCase(words: string): string {
  const pascal = toPascalCase(words);
  return pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** Upper-cases the first letter only (Django's capfirst). */
export function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** `time_zone` → `Time zone`; `id` → `ID`. */
export function defaultLabel(fieldName: string): string {
  if (fieldName === 'id') return 'ID';
  return capitalize(fieldName.replace(/^_+/, '').replace(/_/g, ' '));
}

/** Joins labels the way Django's unique-together message does: `A, B and C`. */
export function joinLabels(labels: readonly string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * A database identifier of at most 63 characters (PostgreSQL's limit): long names keep a readable
 * prefix and end in a short stable hash of the full name.
 */
export function limitIdentifier(name: string): string {
  if (name.length <= 63) return name;
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const suffix = hash.toString(36).padStart(7, '0');
  return `${name.slice(0, 55)}_${suffix}`;
}

/** Where a model's endpoint lives below `/api/`: its app (`dcim`), or `plugins/<base_url>` for a plugin's model. */
export function apiSegment(model: { app: string; plugin?: { baseUrl: string } }): string {
  return model.plugin ? `plugins/${model.plugin.baseUrl}` : model.app;
}

/** The OpenAPI tag of a model's operations: its app, or `plugins`. */
export function apiTag(model: { app: string; plugin?: { baseUrl: string } }): string {
  return model.plugin ? 'plugins' : model.app;
}

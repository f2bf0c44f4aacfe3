/**
 * Timestamps are stored and passed around as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, microseconds): the same
 * text on SQLite and PostgreSQL, sortable as a string, and strictly increasing within a process so that
 * ETags of two quick writes differ.
 */

let lastMicros = 0;

/** The current time as a stored timestamp, later than every earlier call in this process. */
export function now(): string {
  const micros = Math.max(Date.now() * 1000, lastMicros + 1);
  lastMicros = micros;
  return formatMicros(micros);
}

/** The stored timestamp of a moment given in milliseconds since the epoch. */
export function timestampAt(ms: number): string {
  return formatMicros(Math.floor(ms) * 1000);
}

function formatMicros(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString(); // 2026-11-22T17:10:19.123Z
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}

/** Normalises a timestamp from PostgreSQL (`2026-11-22 17:10:19.123456+00`) or an ISO string to stored form. */
export function normalizeTimestamp(text: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text);
  if (!match) return text;
  const [, date, time, fraction = '', zone = 'Z'] = match;
  if (zone === 'Z' || /^[+-]00(:?00)?$/.test(zone)) return `${date}T${time}.${fraction.padEnd(6, '0')}Z`;
  const millis = Date.parse(
    `${date}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}${zone.length === 3 ? `${zone}:00` : zone}`,
  );
  return formatMicros(millis * 1000 + Number(fraction.padEnd(6, '0').slice(3)));
}

/** DRF's rendering: ISO 8601 in UTC with `Z`, microseconds only when non-zero. */
export function renderTimestamp(stored: string | null): string | null {
  if (stored === null) return null;
  return stored.endsWith('.000000Z') ? `${stored.slice(0, -8)}Z` : stored;
}

/** Python's `isoformat()` of the stored time (used in ETags): `+00:00` offset. */
export function isoformatTimestamp(stored: string): string {
  const normalized = normalizeTimestamp(stored);
  const base = normalized.endsWith('.000000Z') ? normalized.slice(0, -8) : normalized.slice(0, -1);
  return `${base}+00:00`;
}

/**
 * Parses a client-supplied datetime (ISO 8601, with or without zone; date only means midnight UTC).
 * Returns the stored form or null when the text is not a datetime.
 */
export function parseDateTimeInput(text: string): string | null {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
      text.trim(),
    );
  if (!match) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const millis = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`);
  if (Number.isNaN(millis)) return null;
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  return formatMicros(millis * 1000 + Number(fraction.padEnd(6, '0').slice(3)));
}

/** Parses `YYYY-MM-DD`; null when it is not a real date. */
export function parseDateInput(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) {
    return null;
  }
  return `${y}-${m}-${d}`;
}

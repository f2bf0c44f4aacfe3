import { RE2JS } from 're2js';

/**
 * Regular expressions of the `__regex`/`__iregex` lookups on SQLite. PostgreSQL evaluates its own `~`/`~*`
 * operators (NetBox's semantics) in the database server; SQLite calls back into this process, where a
 * backtracking engine would let one pattern such as `^(a+)+$` stall every request. RE2 matches in time
 * linear in the subject, and patterns are bounded in size, so a lookup costs at most a few milliseconds a row.
 *
 * Patterns follow PostgreSQL's advanced regular expressions where RE2 can: `.` matches newlines and `^`/`$`
 * only the ends of the value (PostgreSQL's defaults), and the escapes `\Z`, `\y` and `\Y` mean what they mean
 * there. Back-references and look-arounds, which no linear-time engine offers, are invalid (400).
 */

/** The largest compiled program accepted (RE2's own measure of a pattern's cost per character matched). */
export const MAX_PROGRAM_SIZE = 10_000;

/** A pattern that cannot be used, with a reason fit for the client. */
export class RegexError extends Error {}

const cache = new Map<string, RE2JS>();
const CACHE_SIZE = 200;

/**
 * Compiles an RE2 pattern with RE2JS flags (cached), the one linear-time engine behind every user-written
 * pattern: these lookups, and event-rule conditions (events/python-regex.ts) after their own translation.
 * Throws RegexError for an invalid pattern or one whose program exceeds MAX_PROGRAM_SIZE.
 */
export function compileLinearRegex(source: string, flags: number): RE2JS {
  const key = `${flags}/${source}`;
  let compiled = cache.get(key);
  if (compiled) return compiled;
  try {
    compiled = RE2JS.compile(source, flags);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    throw new RegexError(`Invalid regular expression: ${reason}`);
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) throw new RegexError('Regular expression too complex.');
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/** The compiled pattern of a lookup (PostgreSQL's syntax); throws RegexError for an invalid or too complex one. */
export function compileRegex(pattern: string, insensitive: boolean): RE2JS {
  return compileLinearRegex(translate(pattern), RE2JS.DOTALL | (insensitive ? RE2JS.CASE_INSENSITIVE : 0));
}

/** Why a pattern cannot be used, or null. */
export function regexProblem(pattern: string, insensitive = false): string | null {
  try {
    compileRegex(pattern, insensitive);
    return null;
  } catch (error) {
    if (error instanceof RegexError) return error.message;
    throw error;
  }
}

/** Whether `value` contains a match of `pattern` (the SQL function behind the lookups). */
export function regexTest(pattern: string, value: string, insensitive: boolean): boolean {
  return compileRegex(pattern, insensitive).test(value);
}

/** PostgreSQL's escapes that RE2 spells differently, outside bracket expressions. */
const ESCAPES: Record<string, string> = { Z: '\\z', y: '\\b', Y: '\\B' };

function translate(pattern: string): string {
  let out = '';
  let inBracket = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1]!;
      out += !inBracket && ESCAPES[next] ? ESCAPES[next] : `\\${next}`;
      i += 1;
      continue;
    }
    if (c === '[' && !inBracket) {
      inBracket = true;
      out += c;
      // `[]…]` and `[^]…]`: a leading `]` is a member, not the end.
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
      continue;
    }
    if (c === '[' && pattern[i + 1] === ':') {
      const end = pattern.indexOf(':]', i + 2);
      if (end > 0) {
        out += pattern.slice(i, end + 2);
        i = end + 1;
        continue;
      }
    }
    if (c === ']' && inBracket) inBracket = false;
    out += c;
  }
  return out;
}

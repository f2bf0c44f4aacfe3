import { RE2JS } from 're2js';
import { compileLinearRegex, RegexError } from '../db/regex.js';

/**
 * Python's `re.match(pattern, subject)` for the `regex` condition operator, run by RE2 (db/regex.ts, the
 * engine of the `__regex` lookups): a condition's pattern comes from a user while its subject comes from
 * object data, and a backtracking engine would let a pattern such as `(a+)+$` stall the write transaction
 * that evaluates it. RE2 matches in time linear in the subject, whatever the pattern.
 *
 * Python's syntax is kept where RE2 has it or a translation: `re.match` anchors at the start only, `^`, `.`,
 * `\A`, `(?P<name>…)`, `[]…]` and leading global flags such as `(?i)` mean what they mean in Python, `\Z`
 * ends the subject and `\uXXXX`/`\UXXXXXXXX` name code points. `$` (without MULTILINE) matches at the end or
 * before a final newline, as in Python, but consumes that newline (RE2 has no look-ahead), so only a pattern
 * that goes on matching a final newline after `$` differs. Back-references and look-arounds, which no
 * linear-time engine offers, are refused when the rule is saved.
 */

/** Longest pattern accepted. */
export const MAX_PATTERN_LENGTH = 500;
/** Longest subject a pattern is run against; a longer one makes the condition fail to evaluate. */
export const MAX_SUBJECT_LENGTH = 10_000;

/** A pattern that cannot be used, with a message fit for the person who wrote it. */
export class PythonRegexError extends Error {}

const GLOBAL_FLAGS = /^\(\?([aiLmsux]+)\)/;
/** Python's `$` without MULTILINE: the end of the subject, or just before a final newline. */
const END = '(?:\\n?\\z)';
/** What a pattern that RE2 refuses may have used that no linear-time engine offers. */
const NOT_LINEAR = /\(\?(P=|=|!|<=|<!)|\\[1-9]/;

/** Compiles a Python pattern for matchPythonRegex; throws PythonRegexError. */
export function compilePythonRegex(pattern: string): RE2JS {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new PythonRegexError(`Regular expression too long (more than ${MAX_PATTERN_LENGTH} characters).`);
  }
  let body = pattern;
  let flags = 0;
  const global = GLOBAL_FLAGS.exec(body);
  if (global) {
    const letters = global[1] ?? '';
    if (letters.includes('x') || letters.includes('L')) {
      throw new PythonRegexError('Invalid regular expression: the flags (?x) and (?L) are not supported.');
    }
    if (letters.includes('i')) flags |= RE2JS.CASE_INSENSITIVE;
    if (letters.includes('m')) flags |= RE2JS.MULTILINE;
    if (letters.includes('s')) flags |= RE2JS.DOTALL;
    body = body.slice(global[0].length);
  }
  try {
    return compileLinearRegex(translate(body, (flags & RE2JS.MULTILINE) !== 0), flags);
  } catch (error) {
    if (!(error instanceof RegexError)) throw error;
    const hint = NOT_LINEAR.test(body)
      ? ' (back-references and look-arounds are not supported: conditions are matched in linear time)'
      : '';
    throw new PythonRegexError(`${error.message}${hint}`);
  }
}

/** Python's escapes and `$` in RE2's spelling, outside character classes (copied as they are). */
function translate(pattern: string, multiline: boolean): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? '';
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      const digits = next === 'u' ? pattern.slice(i + 2, i + 6) : next === 'U' ? pattern.slice(i + 2, i + 10) : '';
      if (next === 'Z') out += '\\z';
      else if (/^[0-9A-Fa-f]+$/.test(digits) && digits.length === (next === 'u' ? 4 : 8)) {
        out += `\\x{${digits}}`;
        i += digits.length;
      } else out += `\\${next}`;
      i += 2;
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      out += pattern.slice(i, end + 1);
      i = end + 1;
    } else {
      out += char === '$' && !multiline ? END : char;
      i += 1;
    }
  }
  return out;
}

/** Index of the `]` closing the class opened at `start` (or the pattern's length when it never closes). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return Math.min(i, pattern.length);
}

/**
 * `re.match(regex, subject) is not None` for a pattern from compilePythonRegex. Throws PythonRegexError when
 * the subject is too long (the caller treats it as a failed evaluation).
 */
export function matchPythonRegex(regex: RE2JS, subject: string): boolean {
  if (subject.length > MAX_SUBJECT_LENGTH) {
    throw new PythonRegexError(`Value too long for a regular expression (more than ${MAX_SUBJECT_LENGTH} characters).`);
  }
  return regex.matcher(subject).lookingAt();
}

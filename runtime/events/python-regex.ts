import vm from 'node:vm';

/**
 * Python's `re.match(pattern, subject)` for the `regex` condition operator: anchored at the start of the
 * subject only, with Python's meaning of `^`, `$`, `.`, `\A`, `\Z`, `(?P<name>…)`, `(?P=name)`, `[]…]` and
 * leading global flags such as `(?i)`. Anything else passes to JavaScript's engine unchanged, so rarely used
 * Python-only syntax fails to compile (and is reported when the rule is saved) rather than matching
 * differently.
 *
 * A condition's pattern comes from a user while its subject comes from object data, so a pattern with
 * catastrophic backtracking could stall the process that evaluates it (inside a write transaction). Three
 * guards: the pattern length, the subject length, and a time budget for each match (V8 interrupts a running
 * regular expression when a `vm` time-out fires).
 */

/** Longest pattern accepted. */
export const MAX_PATTERN_LENGTH = 500;
/** Longest subject a pattern is run against; a longer one makes the condition fail to evaluate. */
export const MAX_SUBJECT_LENGTH = 10_000;
/** Time budget of one match. */
export const MATCH_TIME_LIMIT_MS = 50;

/** A pattern that cannot be used, with a message fit for the person who wrote it. */
export class PythonRegexError extends Error {}

const GLOBAL_FLAGS = /^\(\?([aiLmsux]+)\)/;
/** Matches the end of the subject, also just before a final newline (Python's `$` without MULTILINE). */
const END = '(?=\\n?(?![\\s\\S]))';
const LINE_END = '(?=\\n|(?![\\s\\S]))';
const LINE_START = '(?:(?<![\\s\\S])|(?<=\\n))';

/** Compiles a Python pattern into an equivalent sticky JavaScript RegExp; throws PythonRegexError. */
export function compilePythonRegex(pattern: string): RegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new PythonRegexError(`Regular expression too long (more than ${MAX_PATTERN_LENGTH} characters).`);
  }
  let body = pattern;
  let flags = 'y';
  const global = GLOBAL_FLAGS.exec(body);
  if (global) {
    const letters = global[1] ?? '';
    if (letters.includes('x') || letters.includes('L')) {
      throw new PythonRegexError('Invalid regular expression: the flags (?x) and (?L) are not supported.');
    }
    for (const letter of ['i', 'm', 's']) if (letters.includes(letter)) flags += letter;
    body = body.slice(global[0].length);
  }
  const source = translate(body, flags.includes('m'), flags.includes('s'));
  try {
    return new RegExp(source, flags);
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    throw new PythonRegexError(`Invalid regular expression: ${reason}`);
  }
}

function translate(pattern: string, multiline: boolean, dotAll: boolean): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? '';
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      out += next === 'A' ? '(?<![\\s\\S])' : next === 'Z' ? '(?![\\s\\S])' : `\\${next}`;
      i += 2;
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      let content = pattern.slice(i + 1, end);
      const negated = content.startsWith('^');
      if (negated) content = content.slice(1);
      // Python reads a `]` right after `[` or `[^` as a literal; JavaScript would close an empty class.
      if (content.startsWith(']')) content = `\\${content}`;
      out += `[${negated ? '^' : ''}${content}]`;
      i = end + 1;
    } else if (pattern.startsWith('(?P<', i)) {
      out += '(?<';
      i += 4;
    } else if (pattern.startsWith('(?P=', i)) {
      const close = pattern.indexOf(')', i);
      if (close < 0) throw new PythonRegexError('Invalid regular expression: missing ), unterminated name');
      out += `\\k<${pattern.slice(i + 4, close)}>`;
      i = close + 1;
    } else {
      if (char === '$') out += multiline ? LINE_END : END;
      else if (char === '^') out += multiline ? LINE_START : '^';
      else if (char === '.' && !dotAll) out += '[^\\n]';
      else out += char;
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

const sandbox = vm.createContext({ regex: null as RegExp | null, subject: '' });
const matchScript = new vm.Script('regex.lastIndex = 0; regex.test(subject)');

/**
 * `re.match(regex, subject) is not None` for a RegExp from compilePythonRegex. Throws when the subject is
 * too long or the match runs out of time (the caller treats both as a failed evaluation).
 */
export function matchPythonRegex(regex: RegExp, subject: string): boolean {
  if (subject.length > MAX_SUBJECT_LENGTH) {
    throw new PythonRegexError(`Value too long for a regular expression (more than ${MAX_SUBJECT_LENGTH} characters).`);
  }
  Object.assign(sandbox, { regex, subject });
  try {
    for (let attempt = 1; ; attempt += 1) {
      const cpu = process.cpuUsage();
      try {
        return matchScript.runInContext(sandbox, { timeout: MATCH_TIME_LIMIT_MS }) === true;
      } catch (error) {
        // The budget is wall-clock time: on a busy machine a trivial match can run out of it without
        // running at all. Only a match that did use the CPU for it has timed out.
        const used = process.cpuUsage(cpu);
        const starved = (used.user + used.system) / 1000 < MATCH_TIME_LIMIT_MS / 2;
        if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT' || !starved || attempt >= 5) {
          throw error;
        }
      }
    }
  } finally {
    Object.assign(sandbox, { regex: null, subject: '' });
  }
}

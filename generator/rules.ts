import type { FieldSpec, ModelSpec, RuleSpec } from '../runtime/spec.js';
import { ExpressionError, expressionPaths, parseExpression } from '../runtime/expression.js';
import type { RuleDef } from './language.js';
import type { Reporter } from './load.js';

/** The end of a field path: the field there (null for `id`) and the model that holds it. */
interface PathEnd {
  model: ModelSpec;
  field: FieldSpec | null;
}

/**
 * Resolves a model's `rules:` into rule specs: every field path, expression and message placeholder must name
 * fields that exist (through foreign keys), `same` must compare paths that end at the same kind of value, and
 * error keys must be `__all__` or a field. Problems are reported at the rule.
 */
export function resolveRules(
  defs: readonly RuleDef[] | undefined,
  model: ModelSpec,
  models: ReadonlyMap<string, ModelSpec>,
  report: Reporter,
): RuleSpec[] {
  const rules: RuleSpec[] = [];
  (defs ?? []).forEach((def, index) => {
    const at = `rules.${index}`;
    const error = (key: string, message: string): void => report.error(`${at}.${key}`, message);
    const path = (key: string, text: string): PathEnd | null => {
      const end = followPath(model, text.split('.'), models);
      if (typeof end === 'string') error(key, end);
      return typeof end === 'string' ? null : end;
    };
    const expression = (key: string, text: string): string => {
      try {
        for (const found of expressionPaths(parseExpression(text))) path(key, found.join('.'));
      } catch (problem) {
        if (!(problem instanceof ExpressionError)) throw problem;
        error(key, `${problem.message} at column ${problem.offset + 1} of '${text}'`);
      }
      return text;
    };
    const field = (key: string, name: string): void => {
      if (!model.fields.some((f) => f.name === name)) error(key, `unknown field '${name}'`);
    };
    const check = (d: { key?: string; message: string }): { key: string; message: string } => {
      const key = d.key ?? '__all__';
      if (key !== '__all__') field('key', key);
      for (const match of d.message.matchAll(/\{([^}]*)\}/g)) path('message', match[1]!);
      return { key, message: d.message };
    };
    const when = (d: { when?: string }): { when?: string } => (d.when ? { when: expression('when', d.when) } : {});

    if ('same' in def) {
      const [left, right] = def.same.map((text, i) => path(`same.${i}`, text));
      const problem = left && right ? comparable(left, right) : null;
      if (problem) error('same', `'${def.same[0]}' and '${def.same[1]}' ${problem}`);
      rules.push({ kind: 'same', paths: [def.same[0], def.same[1]], ...when(def), ...check(def) });
    } else if ('required' in def || 'forbidden' in def) {
      const kind = 'required' in def ? 'required' : 'forbidden';
      const name = 'required' in def ? def.required : def.forbidden;
      field(kind, name);
      rules.push({ kind, field: name, ...when(def), ...check(def) });
    } else if ('invalid' in def) {
      rules.push({ kind: 'invalid', when: expression('invalid', def.invalid), ...check(def) });
    } else if ('validator' in def) {
      rules.push({ kind: 'validator', function: def.validator });
    } else {
      const target = model.fields.find((f) => f.name === def.set);
      if (!target) error('set', `unknown field '${def.set}'`);
      else if (!target.column) error('set', `'${def.set}' is not stored`);
      const to = typeof def.to === 'string' ? expression('to', def.to) : literalText(def.to);
      rules.push({ kind: 'set', field: def.set, to, ...when(def) });
    }
  });
  return rules;
}

/** A constant of a `set` rule as an expression. */
function literalText(value: number | boolean | null): string {
  return value === null ? 'null' : String(value);
}

/** Follows `a.b.c` from a model through foreign keys; an error message when it cannot. */
function followPath(
  model: ModelSpec,
  steps: readonly string[],
  models: ReadonlyMap<string, ModelSpec>,
): PathEnd | string {
  let current = model;
  for (const [index, step] of steps.entries()) {
    const last = index === steps.length - 1;
    if (step === 'id' && last) return { model: current, field: null };
    const field = current.fields.find((f) => f.name === step);
    if (!field) return `unknown field '${step}' of ${current.label} in '${steps.join('.')}'`;
    if (last) return { model: current, field };
    if (field.kind !== 'fk') return `'${step}' of ${current.label} is not a foreign key, in '${steps.join('.')}'`;
    const target = models.get(field.target);
    if (!target) return `unknown model '${field.target}'`;
    current = target;
  }
  return 'an empty path';
}

/** Why two path ends cannot be compared, or null when they can. */
function comparable(left: PathEnd, right: PathEnd): string | null {
  const target = (end: PathEnd): string | null =>
    end.field === null ? end.model.label : end.field.kind === 'fk' ? end.field.target : null;
  const [a, b] = [target(left), target(right)];
  if (a !== null || b !== null) {
    if (a === b) return null;
    return `have no common target (${a ?? left.field!.kind} and ${b ?? right.field!.kind})`;
  }
  return left.field!.kind === right.field!.kind
    ? null
    : `have no common target (${left.field!.kind} and ${right.field!.kind})`;
}

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
    const path = (key: string, text: string): PathEnd[] | null => {
      const ends = followPath(model, text.split('.'), models);
      if (typeof ends === 'string') error(key, ends);
      return typeof ends === 'string' ? null : ends;
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
      const problem = left && right ? left.flatMap((l) => right.map((r) => comparable(l, r))).find(Boolean) : null;
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

/**
 * Follows `a.b.c` from a model through foreign keys and generic relations; the ends it may reach (one per model a
 * generic relation on the way may name that has the next step), or an error message when it reaches none.
 */
function followPath(
  model: ModelSpec,
  steps: readonly string[],
  models: ReadonlyMap<string, ModelSpec>,
  whole = steps.join('.'),
): PathEnd[] | string {
  const [step, ...rest] = steps;
  if (step === undefined) return 'an empty path';
  if (step === 'id' && rest.length === 0) return [{ model, field: null }];
  const field = model.fields.find((f) => f.name === step);
  if (!field) return `unknown field '${step}' of ${model.label} in '${whole}'`;
  if (rest.length === 0) return [{ model, field }];
  if (field.kind === 'fk') {
    const target = models.get(field.target);
    return target ? followPath(target, rest, models, whole) : `unknown model '${field.target}'`;
  }
  if (field.kind !== 'generic_fk') return `'${step}' of ${model.label} is not a foreign key, in '${whole}'`;
  // The object's model decides the next step: a path goes on through each target that has it.
  const ends: PathEnd[] = [];
  const problems: string[] = [];
  for (const label of field.targets) {
    const target = models.get(label);
    if (!target || (!target.fields.some((f) => f.name === rest[0]) && !(rest[0] === 'id' && rest.length === 1)))
      continue;
    const reached = followPath(target, rest, models, whole);
    if (typeof reached === 'string') problems.push(reached);
    else ends.push(...reached);
  }
  if (problems.length > 0) return problems[0]!;
  if (ends.length === 0)
    return `no model that '${step}' of ${model.label} may name (${field.targets.join(', ')}) has a field '${rest[0]}', in '${whole}'`;
  return ends;
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

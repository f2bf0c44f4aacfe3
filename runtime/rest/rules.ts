import type { Knex } from 'knex';
import { relatedRow } from '../db/row-memo.js';
import type { DomainFunctions, WriteItemContext } from '../domain/types.js';
import {
  evaluateExpression,
  expressionPaths,
  parseExpression,
  pythonText,
  sameValue,
  truthy,
  type Expression,
} from '../expression.js';
import type { RuleSpec } from '../spec.js';
import { computeDisplay } from './display.js';
import type { ModelInfo, Schema } from './schema.js';
import { decodeRow } from './values.js';

/**
 * Evaluates the model rules the generator emitted (`spec.rules`) on one object being written. Nothing here
 * knows a model: field paths are followed through the schema's foreign keys, one row read per related object.
 */

const parsed = new Map<string, Expression>();

/** A rule expression, parsed once (the generator has checked every expression it emitted). */
function expressionOf(text: string): Expression {
  let expression = parsed.get(text);
  if (!expression) parsed.set(text, (expression = parseExpression(text)));
  return expression;
}

/** Where a path ends: the value there, or `followed: false` when a foreign key on the way is empty. */
type Reached =
  | { followed: true; value: unknown; model: ModelInfo; field: string; values: Record<string, unknown> }
  | { followed: false };

/** Reads values at field paths from an object being written, loading each related row once. */
class PathReader {
  private readonly rows = new Map<string, Record<string, unknown> | null>();

  constructor(
    private readonly q: Knex,
    private readonly schema: Schema,
    private readonly domain: DomainFunctions,
    private readonly model: ModelInfo,
    private readonly id: number | null,
    private readonly values: Record<string, unknown>,
  ) {}

  /** Follows the path from the object (or from another object's values). */
  async reach(
    path: readonly string[],
    model: ModelInfo = this.model,
    values = this.values,
    id = this.id,
  ): Promise<Reached> {
    const [step, ...rest] = path;
    if (step === 'id' && rest.length === 0) return { followed: true, value: id, model, field: 'id', values };
    const value = values[step!] ?? null;
    if (rest.length === 0) return { followed: true, value, model, field: step!, values };
    const field = model.fields.get(step!);
    if (field?.kind === 'generic_fk') {
      // The object's type decides the model the path goes on in; one without the next step ends it.
      const type = values[field.typeField];
      const target = values[field.idField];
      if (typeof type !== 'string' || target === null || target === undefined) return { followed: false };
      const next = this.schema.models.get(type);
      if (!next || !(rest[0] === 'id' || next.fields.has(rest[0]!))) return { followed: false };
      const row = await this.row(next, Number(target));
      return row ? this.reach(rest, next, row, Number(target)) : { followed: false };
    }
    if (field?.kind !== 'fk' || value === null) return { followed: false };
    const target = this.schema.model(field.target);
    const row = await this.row(target, Number(value));
    return row ? this.reach(rest, target, row, Number(value)) : { followed: false };
  }

  /** The value at a path; null when it cannot be followed. */
  async value(path: readonly string[]): Promise<unknown> {
    const reached = await this.reach(path);
    return reached.followed ? reached.value : null;
  }

  /** The path's value as NetBox prints it: a related object's display text, else Python's `str()`. */
  async text(path: readonly string[]): Promise<string> {
    const reached = await this.reach(path);
    if (!reached.followed) return 'None';
    const field = reached.field === 'id' ? null : reached.model.fields.get(reached.field);
    // A generic relation (no value of its own): the display text of the object its type and id name.
    if (field?.kind === 'generic_fk') {
      const type = reached.values[field.typeField];
      const target = reached.values[field.idField];
      if (typeof type !== 'string' || target === null || target === undefined) return 'None';
      return this.display(this.schema.model(type), Number(target));
    }
    if (reached.value === null) return 'None';
    if (field?.kind !== 'fk') return pythonText(reached.value);
    return this.display(this.schema.model(field.target), Number(reached.value));
  }

  private async display(model: ModelInfo, id: number): Promise<string> {
    const values = await this.row(model, id);
    if (!values) return String(id);
    const display = model.spec.display;
    const uses = display.kind === 'field' ? [display.field] : display.uses;
    const found = new Map<string, unknown>();
    for (const use of uses) {
      const reached = await this.reach(use.split('.'), model, values, id);
      found.set(use, reached.followed ? reached.value : null);
    }
    return computeDisplay(this.domain, display, (name) => found.get(name) ?? null);
  }

  private async row(model: ModelInfo, id: number): Promise<Record<string, unknown> | null> {
    const key = `${model.label}:${id}`;
    if (!this.rows.has(key)) {
      const row = await relatedRow(this.q, model.table, id);
      this.rows.set(key, row ? { ...decodeRow(model.spec.fields, row), id } : null);
    }
    return this.rows.get(key)!;
  }

  /** Evaluates an expression after loading the values at its paths. */
  async evaluate(text: string): Promise<unknown> {
    const expression = expressionOf(text);
    const values = new Map<string, unknown>();
    for (const path of expressionPaths(expression)) values.set(path.join('.'), await this.value(path));
    return evaluateExpression(expression, (path) => values.get(path.join('.')));
  }
}

/** What rule evaluation needs besides the object: the transaction, the schema and the domain functions. */
export interface RuleContext {
  q: Knex;
  schema: Schema;
  domain: DomainFunctions;
}

function readerFor(ctx: RuleContext, item: WriteItemContext): PathReader {
  return new PathReader(ctx.q, ctx.schema, ctx.domain, item.model, item.id, item.values);
}

/** Whether a rule's `when` holds (a rule without one always applies). */
async function applies(reader: PathReader, when: string | undefined): Promise<boolean> {
  return when === undefined || truthy(await reader.evaluate(when));
}

/** Whether one check fails for the object. */
async function fails(reader: PathReader, rule: Exclude<RuleSpec, { kind: 'validator' | 'set' }>): Promise<boolean> {
  switch (rule.kind) {
    case 'same': {
      const left = await reader.reach(rule.paths[0].split('.'));
      const right = await reader.reach(rule.paths[1].split('.'));
      if (!left.followed || !right.followed || !(await applies(reader, rule.when))) return false;
      return !sameValue(left.value, right.value);
    }
    case 'required':
      return (await applies(reader, rule.when)) && !truthy(await reader.value([rule.field]));
    case 'forbidden':
      return (await applies(reader, rule.when)) && truthy(await reader.value([rule.field]));
    case 'invalid':
      return truthy(await reader.evaluate(rule.when));
  }
}

/** `{path}` placeholders of a message, filled with the values there. */
async function fillMessage(reader: PathReader, message: string): Promise<string> {
  let filled = message;
  for (const [placeholder, path] of message.matchAll(/\{([^}]*)\}/g))
    filled = filled.replace(placeholder, await reader.text(path!.split('.')));
  return filled;
}

/**
 * Checks the model's rules in order (domain validators among them), stopping at the first failure, whose
 * message is added to the item's errors.
 */
export async function checkRules(ctx: RuleContext, item: WriteItemContext): Promise<void> {
  const reader = readerFor(ctx, item);
  for (const rule of item.model.spec.rules) {
    if (rule.kind === 'set') continue;
    if (rule.kind === 'validator') await ctx.domain.validator(rule.function)(item);
    else if (await fails(reader, rule)) item.errors.add(rule.key, await fillMessage(reader, rule.message));
    if (item.errors.has()) return;
  }
}

const readByRules = new WeakMap<readonly RuleSpec[], Set<string>>();

/** The fields of the object itself that a model's rules read (each path's first step). */
export function fieldsReadByRules(rules: readonly RuleSpec[]): Set<string> {
  let found = readByRules.get(rules);
  if (found) return found;
  found = new Set<string>();
  const add = (path: string): void => void found!.add(path.split('.')[0]!);
  const addExpression = (text: string | undefined): void => {
    if (text !== undefined) for (const path of expressionPaths(expressionOf(text))) add(path.join('.'));
  };
  for (const rule of rules) {
    if (rule.kind === 'validator') continue;
    addExpression(rule.when);
    if (rule.kind === 'same') rule.paths.forEach(add);
    if (rule.kind === 'required' || rule.kind === 'forbidden') add(rule.field);
    if (rule.kind === 'set') addExpression(rule.to);
    if ('message' in rule) for (const match of rule.message.matchAll(/\{([^}]*)\}/g)) add(match[1]!);
  }
  readByRules.set(rules, found);
  return found;
}

/** Stores the values of the model's `set` rules (computed on save), in order. */
export async function applySetRules(ctx: RuleContext, item: WriteItemContext): Promise<void> {
  for (const rule of item.model.spec.rules) {
    if (rule.kind !== 'set') continue;
    // Each rule sees the values the rules before it set.
    const reader = readerFor(ctx, item);
    if (await applies(reader, rule.when)) item.values[rule.field] = await reader.evaluate(rule.to);
  }
}

/** The FK fields of a model that the first step of a path of its declarative rules names (validators aside). */
export function ruleForeignKeys(model: ModelInfo): string[] {
  const names = new Set<string>();
  const add = (path: readonly string[]): void => {
    if (path.length > 1 && model.fields.get(path[0]!)?.kind === 'fk') names.add(path[0]!);
  };
  for (const rule of model.spec.rules) {
    if (rule.kind === 'validator') continue;
    if (rule.kind === 'same') for (const path of rule.paths) add(path.split('.'));
    for (const text of [rule.when, rule.kind === 'set' ? rule.to : undefined])
      if (text) for (const path of expressionPaths(expressionOf(text))) add(path);
  }
  return [...names].sort();
}

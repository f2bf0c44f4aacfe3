import type { Asker } from './shared-objects.js';
import type { Knex } from 'knex';
import type { FilterStep, ManyToManyField } from '../spec.js';
import type { Dialect } from '../db/connect.js';
import type { Settings } from '../config.js';
import type { DomainFunctions } from '../domain/types.js';
import type { ModelInfo, Schema } from './schema.js';
import type { CustomFields } from './custom-fields.js';

/** What building the conditions of a list's filters needs. */
export interface FilterContext {
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  domain: DomainFunctions;
  /** Builds `cf_<name>` filters; without it they are unknown parameters. */
  customFields?: CustomFields;
  /** The requesting user (saved filters they may apply, NetBox's `usable`); absent or null: anonymous. */
  user?: Asker;
}

/** A condition added to a query (always true or false for a row, never SQL NULL, so that NOT inverts it). */
export type Condition = (qb: Knex.QueryBuilder) => void;

/** A filter path resolved against the schema: the model reached, its alias, and how to reach it from `t0`. */
export interface Walk {
  target: ModelInfo;
  /** Alias of the model reached (`t0` for an empty path). */
  alias: string;
  /** A condition on `t0`: some object reached through the path meets `inner` (written on `alias`). */
  wrap: (inner: Condition) => Condition;
}

const always: Condition = () => {};

/**
 * Resolves filter steps from `model` (alias `t0`) as nested `IN (SELECT …)` subqueries, one per step, so that
 * a path through reverse and many-to-many relations never multiplies the rows of the list.
 */
export function walkSteps(schema: Schema, model: ModelInfo, steps: readonly FilterStep[]): Walk {
  if (steps.length === 0) return { target: model, alias: 't0', wrap: (inner) => inner };
  const models: ModelInfo[] = [model];
  for (const step of steps) {
    models.push(schema.model('model' in step ? step.model : step.target));
  }
  const alias = `p${steps.length}`;
  const wrap =
    (inner: Condition) =>
    (index: number): Condition =>
    (qb) => {
      const step = steps[index]!;
      const from = index === 0 ? 't0' : `p${index}`;
      const own = `p${index + 1}`;
      const current = models[index]!;
      const next = models[index + 1]!;
      const rest: Condition = index + 1 < steps.length ? wrap(inner)(index + 1) : inner;
      const objects = (sub: Knex.QueryBuilder, column: string): void => {
        sub
          .select(`${own}.${column}`)
          .from({ [own]: next.table })
          .where(rest);
      };
      switch (step.kind) {
        case 'fk': {
          const column = `${from}.${current.fields.get(step.field)!.column!}`;
          qb.whereNotNull(column).whereIn(column, (sub) => objects(sub, 'id'));
          break;
        }
        case 'reverse': {
          const column = next.fields.get(step.field)!.column!;
          qb.whereIn(`${from}.id`, (sub) => {
            objects(sub, column);
            sub.whereNotNull(`${own}.${column}`);
          });
          break;
        }
        case 'm2m':
        case 'reverse_m2m': {
          const field = (step.kind === 'm2m' ? current : next).fields.get(step.field) as ManyToManyField;
          // The join table's column for the object we come from, and the one for the object we go to.
          const [near, far] =
            step.kind === 'm2m' ? [field.fromColumn, field.toColumn] : [field.toColumn, field.fromColumn];
          qb.whereIn(`${from}.id`, (sub) => {
            sub
              .select(`m${index + 1}.${near}`)
              .from({ [`m${index + 1}`]: field.through })
              .whereIn(`m${index + 1}.${far}`, (objectsSub) => objects(objectsSub, 'id'));
          });
          break;
        }
        case 'reverse_generic': {
          const relation = next.fields.get(step.field);
          if (relation?.kind !== 'generic_fk') throw new Error(`${next.label}.${step.field} is not a generic FK`);
          const typeColumn = `${own}.${next.fields.get(relation.typeField)!.column!}`;
          const idColumn = next.fields.get(relation.idField)!.column!;
          qb.whereIn(`${from}.id`, (sub) => {
            objects(sub, idColumn);
            sub.where(typeColumn, current.label).whereNotNull(`${own}.${idColumn}`);
          });
          break;
        }
        case 'generic': {
          const relation = current.fields.get(step.field);
          if (relation?.kind !== 'generic_fk') throw new Error(`${current.label}.${step.field} is not a generic FK`);
          const typeColumn = `${from}.${current.fields.get(relation.typeField)!.column!}`;
          const idColumn = `${from}.${current.fields.get(relation.idField)!.column!}`;
          qb.whereNotNull(typeColumn)
            .where(typeColumn, step.target)
            .whereNotNull(idColumn)
            .whereIn(idColumn, (sub) => objects(sub, 'id'));
          break;
        }
      }
    };
  return { target: models[steps.length]!, alias, wrap: (inner) => wrap(inner)(0) };
}

/** A condition on `t0`: some object is reached through the steps (a related object exists). */
export function reachesAny(schema: Schema, model: ModelInfo, steps: readonly FilterStep[]): Condition {
  return walkSteps(schema, model, steps).wrap(always);
}

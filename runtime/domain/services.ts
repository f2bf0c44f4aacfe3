import type { Knex } from 'knex';
import { whereJsonListEmpty, whereJsonListHasAny, whereJsonListItemCompares } from '../db/sql.js';
import { parseBoolean } from '../rest/values.js';
import type { DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * Application services and their templates (NetBox's `ServiceBase`): a protocol and a list of ports, shown as
 * `SSH (TCP/22)`, ordered by their lowest port; services belong to a device or a virtual machine.
 */

/** `[22, 80, 81, 82]` → `22, 80-82` (NetBox's `array_to_string`). */
export function portList(ports: readonly number[]): string {
  const sorted = [...new Set(ports)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return ranges.join(', ');
}

/** `SSH (TCP/22)`; the protocols' labels are their values in capitals. */
export function displayService(values: Record<string, unknown>): string {
  const ports = Array.isArray(values.ports) ? (values.ports as number[]) : [];
  return `${String(values.name ?? '')} (${String(values.protocol ?? '').toUpperCase()}/${portList(ports)})`;
}

/** A service needs at least one port. */
export function validateServicePorts(item: WriteItemContext): void {
  const ports = item.values.ports;
  if (Array.isArray(ports) && ports.length === 0) item.errors.add('ports', 'This list may not be empty.');
}

/** The hidden `_ports_lowest` follows the ports, for the default ordering. */
export function prepareServicePorts(item: WriteItemContext): void {
  const ports = (item.values.ports as number[] | null) ?? [];
  item.values._ports_lowest = ports.length ? Math.min(...ports) : null;
}

const COMPARISONS = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/**
 * `port=22`: services (or templates) whose ports include one of the values; `port__n` none of them;
 * `port__lt`/`lte`/`gt`/`gte`: some port compares with the value; `port__empty`: no ports.
 */
export const servicesWithPort: FilterFunction = (ctx, model, values, lookup) =>
  listItemFilter('ports')(ctx, model, values, lookup);

/** Objects whose integer list field has an item equal to one of the values (or comparing with it; `empty`). */
export const listItemFilter =
  (field: string): FilterFunction =>
  async (ctx, model, values, lookup) => {
    const column = `t0.${model.fields.get(field)!.column!}`;
    if (lookup === 'empty') {
      const flag = parseBoolean(values[0] ?? '');
      if (flag === null) return `Select a valid choice. ${values[0] ?? ''} is not one of the available choices.`;
      return (query) =>
        void query.where((w) =>
          flag
            ? whereJsonListEmpty(w, ctx.dialect, column)
            : w.whereNot((x) => whereJsonListEmpty(x, ctx.dialect, column)),
        );
    }
    if (values.some((v) => !/^\d+$/.test(v.trim()))) return 'Enter a number.';
    const ports = values.map(Number);
    if (lookup in COMPARISONS) {
      const operator = COMPARISONS[lookup as keyof typeof COMPARISONS];
      return (query) =>
        void query.where((w) => {
          for (const port of ports) w.orWhere((x) => whereJsonListItemCompares(x, ctx.dialect, column, operator, port));
        });
    }
    const any = (w: Knex.QueryBuilder): void => whereJsonListHasAny(w, ctx.dialect, column, ports);
    return lookup === 'n' ? (query) => void query.whereNot(any) : (query) => void query.where(any);
  };

export const serviceFunctions = {
  'ipam.displayService': { kind: 'display', fn: displayService },
  'ipam.validateServicePorts': { kind: 'validator', fn: validateServicePorts, batch: true },
  'ipam.prepareServicePorts': { kind: 'prepare', fn: prepareServicePorts },
  'ipam.servicesWithPort': { kind: 'filter', fn: servicesWithPort },
} satisfies Record<string, DomainEntry>;

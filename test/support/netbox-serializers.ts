import fs from 'node:fs';
import path from 'node:path';
import { enablePlugins } from '../../runtime/plugins.js';
import type { ModelSpec, Registry } from '../../runtime/spec.js';
import {
  DIFFERENCES,
  NOT_IN_NETBOX,
  type Representation,
  type SerializerDifference,
} from '../fixtures/netbox-serializer-differences.js';

/** One model's representation in NetBox, as test/fixtures/derive-netbox-serializers.py records it. */
export interface NetBoxShape {
  path: string;
  serializer: string;
  fields: string[];
  write_only: string[];
  complete: string[];
  brief_fields: string[] | null;
  brief: string[];
  /** Devices and virtual machines: the keys of `?exclude=config_context`. */
  exclude_config_context?: string[];
  notes?: string[];
}

export const NETBOX_SERIALIZERS = (
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/netbox-serializers.json'), 'utf8')) as {
    models: Record<string, NetBoxShape>;
  }
).models;

/** The served models compared with NetBox, and those skipped with the reason. */
export interface ServedModels {
  compared: { label: string; model: ModelSpec; netbox: NetBoxShape }[];
  skipped: { label: string; reason: string }[];
}

/**
 * The models a default server (no plugins) serves, split into those NetBox serves too and the others; models of
 * the fixture that are not served (yet) are skipped, so that a new model is compared as soon as it lands.
 */
export function servedModels(registry: Registry): ServedModels {
  const served = enablePlugins(registry, []);
  const result: ServedModels = { compared: [], skipped: [] };
  for (const plugin of registry.plugins) {
    for (const label of plugin.models)
      result.skipped.push({ label, reason: `a model of plugin ${plugin.name}, which follows its own serializers` });
  }
  for (const model of Object.values(served.models)) {
    if (!model.path) continue;
    const netbox = NETBOX_SERIALIZERS[model.label];
    const reason = NOT_IN_NETBOX[model.label];
    if (netbox) result.compared.push({ label: model.label, model, netbox });
    else if (reason) result.skipped.push({ label: model.label, reason });
  }
  for (const label of Object.keys(NETBOX_SERIALIZERS)) {
    if (!served.models[label]?.path) result.skipped.push({ label, reason: 'not served yet' });
  }
  result.compared.sort((a, b) => a.label.localeCompare(b.label));
  return result;
}

/** Served models that NetBox does not serve and that NOT_IN_NETBOX does not explain. */
export function unexplainedModels(registry: Registry): string[] {
  const served = enablePlugins(registry, []);
  return Object.values(served.models)
    .filter((m) => m.path && !NETBOX_SERIALIZERS[m.label] && !NOT_IN_NETBOX[m.label])
    .map((m) => m.label);
}

/** A difference found between NetBox's keys and this service's, as `missing owner`, `extra x` or `order`. */
function found(netbox: readonly string[], here: readonly string[]): string[] {
  const mine = new Set(here);
  const theirs = new Set(netbox);
  const result = [
    ...netbox.filter((key) => !mine.has(key)).map((key) => `missing ${key}`),
    ...here.filter((key) => !theirs.has(key)).map((key) => `extra ${key}`),
  ];
  const common = netbox.filter((key) => mine.has(key));
  if (common.join() !== here.filter((key) => theirs.has(key)).join()) result.push('order');
  return result;
}

function nameOf(difference: SerializerDifference): string {
  return difference.field ? `${difference.kind} ${difference.field}` : difference.kind;
}

/** The outcome of comparing one representation with NetBox's and the listed differences. */
export interface Comparison {
  /** Differences found but not listed in DIFFERENCES. */
  unlisted: string[];
  /** Differences listed in DIFFERENCES that no longer exist: delete them. */
  fixed: string[];
}

/** Compares a representation's keys (from the registry or a response) with NetBox's. */
export function compareKeys(
  label: string,
  representation: Representation,
  netbox: readonly string[],
  here: readonly string[],
): Comparison {
  const listed = DIFFERENCES.filter((d) => d.model === label && d.representation === representation);
  const differences = found(netbox, here);
  if (listed.some((d) => d.kind === 'shape')) {
    return { unlisted: [], fixed: differences.length ? [] : ['shape'] };
  }
  const names = listed.map(nameOf);
  return {
    unlisted: differences.filter((d) => !names.includes(d)),
    fixed: names.filter((d) => !differences.includes(d)),
  };
}

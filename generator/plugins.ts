import { parseDocument } from 'yaml';
import { Ajv } from 'ajv';
import type { PluginSpec } from '../runtime/spec.js';
import manifestSchema from './plugin-manifest.schema.json' with { type: 'json' };
import { ModelError, type SourceFile } from './load.js';

/** A plugin folder as the generator's shell reads it: `models/plugins/<name>/`. */
export interface PluginSource {
  /** The folder name. */
  name: string;
  /** `plugin.yaml`. */
  manifest: SourceFile;
  /** The other YAML files of the folder: model files in the model language. */
  models: SourceFile[];
  /** `functions.ts`: the plugin's own domain functions, when it has any. */
  functions?: PluginFunctions;
}

/** A plugin's `functions.ts`: a table of domain functions named `<plugin>.<function>`, as `runtime/domain/`'s. */
export interface PluginFunctions extends SourceFile {
  /** How the generated registry (`<outDir>/index.ts`) imports it, e.g. `../models/plugins/dns/functions.js`. */
  module: string;
}

/** The file of a plugin folder that holds its own domain functions. */
export const FUNCTIONS_FILE = 'functions.ts';

/** What a plugin's manifest declares; its models and migrations are added by the generator. */
export type PluginManifest = Omit<PluginSpec, 'models' | 'migrations'>;

/** The file of a plugin folder that describes the plugin rather than models. */
export const MANIFEST_FILE = 'plugin.yaml';

const validateManifest = new Ajv({ allErrors: true, strict: true }).compile(manifestSchema);

interface ManifestFile {
  name: string;
  verbose_name?: string;
  version: string;
  base_url: string;
  description?: string;
  author?: string;
  min_version?: string;
  max_version?: string;
}

/**
 * Reads each plugin's manifest and checks it: the name is the folder's, base URLs are unique, and the
 * service version lies within the plugin's supported range. Errors name the manifest file.
 */
export function loadManifests(
  sources: readonly PluginSource[],
  serviceVersion: string,
  coreApps: ReadonlySet<string>,
): { manifests: Map<string, PluginManifest>; errors: ModelError[] } {
  const manifests = new Map<string, PluginManifest>();
  const errors: ModelError[] = [];
  const baseUrls = new Map<string, string>();
  for (const source of [...sources].sort((a, b) => a.name.localeCompare(b.name))) {
    const file = source.manifest.path;
    if (source.manifest.text.trim() === '') {
      errors.push(new ModelError(file, '', `a plugin folder needs a manifest (${MANIFEST_FILE}) naming the plugin`));
      continue;
    }
    const document = parseDocument(source.manifest.text);
    if (document.errors.length > 0) {
      for (const error of document.errors) {
        const position = error.linePos?.[0];
        errors.push(new ModelError(file, '', error.message.split('\n')[0] ?? '', position));
      }
      continue;
    }
    const doc: unknown = document.toJS();
    if (!validateManifest(doc)) {
      for (const error of validateManifest.errors ?? []) {
        const params = error.params as Record<string, unknown>;
        const message =
          error.keyword === 'additionalProperties'
            ? `unknown property '${String(params.additionalProperty)}'`
            : error.keyword === 'required'
              ? `missing property '${String(params.missingProperty)}'`
              : (error.message ?? error.keyword);
        errors.push(new ModelError(file, error.instancePath.slice(1).replace(/\//g, '.'), message));
      }
      continue;
    }
    const manifest = doc as unknown as ManifestFile;
    const before = errors.length;
    if (manifest.name !== source.name)
      errors.push(new ModelError(file, 'name', `must be the folder's name '${source.name}'`));
    if (coreApps.has(manifest.name))
      errors.push(new ModelError(file, 'name', `'${manifest.name}' is the name of a core app`));
    const other = baseUrls.get(manifest.base_url);
    if (other)
      errors.push(new ModelError(file, 'base_url', `'${manifest.base_url}' is already used by plugin '${other}'`));
    baseUrls.set(manifest.base_url, manifest.name);
    if (manifest.min_version && compareVersions(serviceVersion, manifest.min_version) < 0)
      errors.push(
        new ModelError(file, 'min_version', `needs ${manifest.min_version}; this service is ${serviceVersion}`),
      );
    if (manifest.max_version && compareVersions(serviceVersion, manifest.max_version) > 0)
      errors.push(
        new ModelError(
          file,
          'max_version',
          `supports up to ${manifest.max_version}; this service is ${serviceVersion}`,
        ),
      );
    if (source.models.length === 0) errors.push(new ModelError(file, '', 'the plugin folder has no model file'));
    if (errors.length > before) continue;
    manifests.set(source.name, {
      name: manifest.name,
      verboseName: manifest.verbose_name ?? manifest.name,
      version: manifest.version,
      baseUrl: manifest.base_url,
      description: manifest.description ?? '',
      ...(manifest.author ? { author: manifest.author } : {}),
      ...(manifest.min_version ? { minVersion: manifest.min_version } : {}),
      ...(manifest.max_version ? { maxVersion: manifest.max_version } : {}),
    });
  }
  return { manifests, errors };
}

/** Compares dotted numeric versions (`4.6` equals `4.6.0`). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string): number[] => v.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

import fs from 'node:fs';
import path from 'node:path';
import { generate } from './generate.js';
import type { SourceFile } from './load.js';
import { FUNCTIONS_FILE, MANIFEST_FILE, type PluginSource } from './plugins.js';
import { typecheckGenerated } from './typecheck.js';
import { readDomainCatalog } from './domain-catalog.js';

export interface GenerateOptions {
  /** Project root (holds package.json, tsconfig.json, templates/). */
  root: string;
  /** Folder of YAML model files. */
  modelsDir: string;
  /** Output folder (normally `<root>/generated`). */
  outDir: string;
  /** Compare instead of writing. */
  check?: boolean;
  /** Skip the TypeScript check of the output (tests that generate many times). */
  skipTypecheck?: boolean;
}

export interface GenerateOutcome {
  ok: boolean;
  /** Errors, or in check mode the files that differ. */
  messages: string[];
  written: string[];
}

/** The generator's shell: reads model files and earlier migrations, generates, type-checks, writes or checks. */
export async function generateProject(options: GenerateOptions): Promise<GenerateOutcome> {
  const { root, modelsDir, outDir } = options;
  const relativeName = (file: string): string => path.relative(root, file) || file;
  const readYaml = (dir: string): SourceFile[] =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
      .sort()
      .map((f) => {
        const full = path.join(dir, f);
        return {
          path: relativeName(full).startsWith('..') ? full : relativeName(full),
          text: fs.readFileSync(full, 'utf8'),
        };
      });
  const models = readYaml(modelsDir);
  const pluginsDir = path.join(modelsDir, 'plugins');
  const plugins: PluginSource[] = fs.existsSync(pluginsDir)
    ? fs
        .readdirSync(pluginsDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
        .map((name) => {
          const files = readYaml(path.join(pluginsDir, name));
          const isManifest = (f: SourceFile): boolean => path.basename(f.path) === MANIFEST_FILE;
          const manifestPath = path.join(pluginsDir, name, MANIFEST_FILE);
          const functionsPath = path.join(pluginsDir, name, FUNCTIONS_FILE);
          const functions = fs.existsSync(functionsPath)
            ? {
                path: relativeName(functionsPath),
                text: fs.readFileSync(functionsPath, 'utf8'),
                module: path.relative(outDir, functionsPath).split(path.sep).join('/').replace(/\.ts$/, '.js'),
              }
            : undefined;
          return {
            name,
            manifest: files.find(isManifest) ?? { path: relativeName(manifestPath), text: '' },
            models: files.filter((f) => !isManifest(f)),
            functions,
          };
        })
    : [];
  const migrations = listFiles(outDir)
    .filter((f) => /^(plugins\/[^/]+\/)?migrations\/[^/]+\.json$/.test(f))
    .map((f) => ({ path: f, text: fs.readFileSync(path.join(outDir, f), 'utf8') }));
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const registryTemplate = fs.readFileSync(path.join(root, 'templates', 'registry.ts.hbs'), 'utf8');

  const domainFunctions = readDomainCatalog(root);
  const result = await generate({
    models,
    plugins,
    migrations,
    version: pkg.version,
    registryTemplate,
    domainFunctions,
  });
  if (result.errors.length > 0) return { ok: false, messages: result.errors, written: [] };
  if (!options.skipTypecheck) {
    const diagnostics = typecheckGenerated(root, result.files);
    if (diagnostics.length > 0) return { ok: false, messages: diagnostics, written: [] };
  }

  const existing = listFiles(outDir);
  if (options.check) {
    const messages: string[] = [];
    for (const [file, text] of result.files) {
      const full = path.join(outDir, file);
      if (!fs.existsSync(full)) messages.push(`missing: ${file}`);
      else if (fs.readFileSync(full, 'utf8') !== text) messages.push(`differs: ${file}`);
    }
    for (const file of existing) if (!result.files.has(file)) messages.push(`orphan: ${file}`);
    return { ok: messages.length === 0, messages, written: [] };
  }

  const written: string[] = [];
  for (const [file, text] of result.files) {
    const full = path.join(outDir, file);
    if (fs.existsSync(full) && fs.readFileSync(full, 'utf8') === text) continue;
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
    written.push(file);
  }
  for (const file of existing) {
    if (!result.files.has(file)) {
      fs.rmSync(path.join(outDir, file));
      written.push(`${file} (removed)`);
    }
  }
  return { ok: true, messages: [], written };
}

function listFiles(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(path.join(dir, entry.name), rel) : [rel];
  });
}

import fs from 'node:fs';
import path from 'node:path';
import { generate } from './generate.js';
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
  const models = fs
    .readdirSync(modelsDir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => {
      const full = path.join(modelsDir, f);
      return {
        path: relativeName(full).startsWith('..') ? full : relativeName(full),
        text: fs.readFileSync(full, 'utf8'),
      };
    });
  const migrationsDir = path.join(outDir, 'migrations');
  const migrations = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ path: `migrations/${f}`, text: fs.readFileSync(path.join(migrationsDir, f), 'utf8') }))
    : [];
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const registryTemplate = fs.readFileSync(path.join(root, 'templates', 'registry.ts.hbs'), 'utf8');

  const domainFunctions = readDomainCatalog(root);
  const result = await generate({ models, migrations, version: pkg.version, registryTemplate, domainFunctions });
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

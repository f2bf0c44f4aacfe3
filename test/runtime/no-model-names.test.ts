import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';

/**
 * The runtime names no model: model knowledge comes only from YAML and generated/. Domain functions
 * (runtime/domain/) are the one place allowed to know models; the CLI is the composition root that imports
 * the registry.
 */
const runtimeDir = path.resolve(import.meta.dirname, '../../runtime');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'domain' ? [] : sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the runtime', () => {
  const files = sources(runtimeDir);
  const models = Object.values(registry.models);
  const forbidden = models.flatMap((m) => [m.label, m.table, ...(m.path ? [`/${m.app}/${m.path}/`] : [])]);

  it('mentions no model label, table or endpoint in code outside runtime/domain/', () => {
    const hits: string[] = [];
    for (const file of files) {
      // Comments may give examples; code may not.
      const text = fs
        .readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:])\/\/.*$/gm, '$1');
      for (const name of forbidden) if (text.includes(name)) hits.push(`${path.relative(runtimeDir, file)}: ${name}`);
    }
    expect(hits).toEqual([]);
  });

  it('imports generated/ only at the composition root', () => {
    const importers = files.filter((f) => /from '\.\.?\/(\.\.\/)*generated\//.test(fs.readFileSync(f, 'utf8')));
    expect(importers.map((f) => path.relative(runtimeDir, f))).toEqual(['cli.ts']);
  });
});

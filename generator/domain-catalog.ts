import path from 'node:path';
import { Node, Project, SyntaxKind, type SourceFile as TsSourceFile } from 'ts-morph';
import type { DomainEntry } from '../runtime/domain/types.js';
import type { SourceFile } from './load.js';

export type DomainFunctionKind = DomainEntry['kind'];

/** The domain functions: `<module>.<function>` → kind. */
export type DomainCatalog = ReadonlyMap<string, DomainFunctionKind>;

const KINDS: ReadonlySet<string> = new Set<DomainFunctionKind>([
  'display',
  'validator',
  'prepare',
  'present',
  'created',
  'updated',
  'written',
  'compute',
  'derive',
  'filter',
  'allocator',
  'list',
  'locate',
  'run',
]);

/**
 * The domain functions of the runtime, read from the source of `runtime/domain/` without running it: every
 * table entry `'<module>.<function>': { kind: '<kind>', fn }`. The generator's shell hands the catalog to
 * the pure core, which checks the names the models use; the type check of `generated/index.ts` stays the
 * proof that the table and the catalog agree.
 */
export function readDomainCatalog(root: string): DomainCatalog {
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  const files = project.addSourceFilesAtPaths(path.join(root, 'runtime', 'domain', '*.ts'));
  const catalog = new Map<string, DomainFunctionKind>();
  for (const file of files) for (const entry of tableEntries(file)) catalog.set(entry.name, entry.kind);
  return catalog;
}

/** One entry of a function table, with its line in the file. */
export interface CatalogEntry {
  name: string;
  kind: DomainFunctionKind;
  line: number;
}

/**
 * The entries of the function table a plugin's `functions.ts` exports (`'<plugin>.<function>': { kind, fn }`),
 * read from its text: the pure core reads plugins' functions as it reads their YAML.
 */
export function pluginFunctionEntries(file: SourceFile): CatalogEntry[] {
  const project = new Project({ useInMemoryFileSystem: true, skipFileDependencyResolution: true });
  return tableEntries(project.createSourceFile('functions.ts', file.text));
}

function tableEntries(file: TsSourceFile): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const entry of file.getDescendantsOfKind(SyntaxKind.PropertyAssignment)) {
    const name = entry.getNameNode();
    const value = entry.getInitializer();
    if (!Node.isStringLiteral(name) || !Node.isObjectLiteralExpression(value)) continue;
    const kind = value.getProperty('kind');
    const literal = Node.isPropertyAssignment(kind) ? kind.getInitializer() : undefined;
    if (!Node.isStringLiteral(literal) || !KINDS.has(literal.getLiteralValue())) continue;
    if (!/^[a-z][a-zA-Z0-9_]*\.[a-z][a-zA-Z0-9]*$/.test(name.getLiteralValue())) continue;
    entries.push({
      name: name.getLiteralValue(),
      kind: literal.getLiteralValue() as DomainFunctionKind,
      line: entry.getStartLineNumber(),
    });
  }
  return entries;
}

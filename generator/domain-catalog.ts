import path from 'node:path';
import { Node, Project, SyntaxKind } from 'ts-morph';
import type { DomainCatalog, DomainFunctionKind } from './contracts.js';

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
  for (const file of files) {
    for (const entry of file.getDescendantsOfKind(SyntaxKind.PropertyAssignment)) {
      const name = entry.getNameNode();
      const value = entry.getInitializer();
      if (!Node.isStringLiteral(name) || !Node.isObjectLiteralExpression(value)) continue;
      const kind = value.getProperty('kind');
      const literal = Node.isPropertyAssignment(kind) ? kind.getInitializer() : undefined;
      if (!Node.isStringLiteral(literal) || !KINDS.has(literal.getLiteralValue())) continue;
      if (!/^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*$/.test(name.getLiteralValue())) continue;
      catalog.set(name.getLiteralValue(), literal.getLiteralValue() as DomainFunctionKind);
    }
  }
  return catalog;
}

/** The import's report: per model, rows read, imported, updated and left out (with the reason), and the NetBox tables without a home. */
import type { ModelPlan } from './plan.js';

export interface ModelReport {
  model: string;
  /** The NetBox table it was read from. */
  table: string;
  read: number;
  imported: number;
  /** Merge: objects whose id existed, updated. */
  updated: number;
  /** Rows left out, with the reason (the service's validation message). */
  skipped: { id: number; reason: string }[];
  /** References written as null because their target was not imported. */
  dropped: { id: number; reason: string }[];
  /** Image files: copied from NetBox's media folder or downloaded from the REST source, or not (missing there). */
  files: { id: number; file: string; copied: boolean }[];
}

export interface ImportReport {
  source: string;
  /** A NetBox database, or a NetBox REST API (its "tables" are then list endpoints). */
  sourceKind: 'database' | 'api';
  netboxVersion: string;
  target: 'sqlite' | 'postgres';
  dryRun: boolean;
  merge: boolean;
  models: ModelReport[];
  /** NetBox tables holding rows that no model of the service reads yet. */
  withoutHome: { table: string; rows: number }[];
  rowsWithHome: number;
  rowsWithoutHome: number;
  /** API tokens that keep working after the move, and those that must be issued again. */
  tokens: { unchanged: { id: number; how: string }[]; reissue: { id: number; reason: string }[] };
  /** What the source could not give (over the REST API: passwords and token secrets). */
  notes: string[];
  seconds: number;
}

export function emptyModelReport(plan: ModelPlan): ModelReport {
  return {
    model: plan.model.label,
    table: plan.table!,
    read: 0,
    imported: 0,
    updated: 0,
    skipped: [],
    dropped: [],
    files: [],
  };
}

/** The report as text for a terminal. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  const verb = report.dryRun ? 'Would import' : 'Imported';
  const imported = report.models.reduce((n, m) => n + m.imported + m.updated, 0);
  const read = report.models.reduce((n, m) => n + m.read, 0);
  lines.push(
    `${verb} ${imported} of ${read} rows from NetBox ${report.netboxVersion} (${report.source}) into ${report.target} in ${report.seconds} s${report.dryRun ? ' (dry run: nothing was written)' : ''}.`,
  );
  const width = Math.max(...report.models.map((m) => m.model.length), 5);
  lines.push(
    '',
    `${'model'.padEnd(width)}  ${'read'.padStart(7)}  ${'imported'.padStart(8)}  ${'updated'.padStart(7)}  ${'skipped'.padStart(7)}`,
  );
  for (const m of report.models) {
    if (m.read === 0) continue;
    lines.push(
      `${m.model.padEnd(width)}  ${String(m.read).padStart(7)}  ${String(m.imported).padStart(8)}  ${String(m.updated).padStart(7)}  ${String(m.skipped.length).padStart(7)}`,
    );
  }
  const skipped = report.models.flatMap((m) => m.skipped.map((s) => `  ${m.model} ${s.id}: ${s.reason}`));
  if (skipped.length)
    lines.push(
      '',
      `Left out (${skipped.length}):`,
      ...skipped.slice(0, 50),
      ...(skipped.length > 50 ? [`  … and ${skipped.length - 50} more (see --report)`] : []),
    );
  const dropped = report.models.flatMap((m) => m.dropped.map((s) => `  ${m.model} ${s.id}: ${s.reason}`));
  if (dropped.length)
    lines.push(
      '',
      `References left empty (${dropped.length}):`,
      ...dropped.slice(0, 20),
      ...(dropped.length > 20 ? [`  … and ${dropped.length - 20} more`] : []),
    );
  const missing = report.models.flatMap((m) =>
    m.files.filter((f) => !f.copied).map((f) => `  ${m.model} ${f.id}: ${f.file}`),
  );
  if (missing.length)
    lines.push(
      '',
      report.sourceKind === 'api'
        ? `Image files the source did not serve (${missing.length}):`
        : `Image files not copied (give NetBox's media folder with --media) (${missing.length}):`,
      ...missing.slice(0, 20),
    );
  const { unchanged, reissue } = report.tokens;
  if (unchanged.length + reissue.length > 0) {
    lines.push('', `API tokens: ${unchanged.length} work unchanged, ${reissue.length} must be issued again.`);
    for (const t of unchanged) lines.push(`  token ${t.id}: ${t.how}`);
    for (const t of reissue) lines.push(`  token ${t.id}: ${t.reason}`);
  }
  if (report.notes.length) lines.push('', ...report.notes);
  const total = report.rowsWithHome + report.rowsWithoutHome;
  if (report.withoutHome.length) {
    lines.push(
      '',
      `NetBox ${report.sourceKind === 'api' ? 'endpoints' : 'tables'} without a home here yet (${report.rowsWithoutHome} of ${total} rows, ${percent(report.rowsWithoutHome, total)}):`,
    );
    for (const t of report.withoutHome) lines.push(`  ${t.table.padEnd(40)} ${t.rows}`);
  }
  return lines.join('\n');
}

function percent(part: number, total: number): string {
  return total === 0 ? '0 %' : `${((100 * part) / total).toFixed(1)} %`;
}

/**
 * `svc import-netbox SOURCE [--token TOKEN] [--merge] [--dry-run] [--report FILE]`: options, the source (a NetBox
 * database URL, or a NetBox URL whose REST API is read with the token), the service's database
 * (migrated first), the import, the report. What goes wrong in the input is one line on stderr (exit 1).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { createContext } from '../app.js';
import type { Settings } from '../config.js';
import { prepareDatabase } from '../serve.js';
import type { Registry } from '../spec.js';
import { ImportError } from './import-error.js';
import { importNetbox } from './importer.js';
import { openNetboxDatabase, redactUrl, type NetboxSource } from './netbox-database.js';
import { formatReport } from './report.js';
import { openNetboxApi } from './netbox-api.js';
import { Schema } from '../rest/schema.js';
import { progressBar } from './progress.js';

const USAGE = [
  'Usage: svc import-netbox postgres://USER@HOST/NETBOX [--merge] [--dry-run] [--report FILE] [--media DIR]',
  '       svc import-netbox https://NETBOX --token TOKEN [--merge] [--dry-run] [--report FILE]',
].join('\n');

/** Runs the command; returns the exit code. */
export async function runImportNetbox(reg: Registry, settings: Settings, args: string[]): Promise<number> {
  let values: {
    merge?: boolean;
    'dry-run'?: boolean;
    report?: string;
    batch?: string;
    media?: string;
    token?: string;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        merge: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        report: { type: 'string' },
        batch: { type: 'string' },
        media: { type: 'string' },
        token: { type: 'string' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 1;
  }
  const url = positionals[0];
  if (!url || positionals.length > 1) {
    console.error(USAGE);
    return 1;
  }
  const api = /^https?:\/\//.test(url);
  if (!api && !/^postgres(ql)?:\/\//.test(url)) {
    console.error(
      `Unsupported source ${url}: give a NetBox database URL (postgres://…) or a NetBox URL (https://…) with --token.`,
    );
    return 1;
  }
  const token = values.token ?? process.env.NETBOX_TOKEN;
  if (api && !token) {
    console.error(`Reading ${url} needs an API token: give --token TOKEN (or NETBOX_TOKEN).`);
    return 1;
  }
  let source: NetboxSource | null = null;
  try {
    source = api ? await openNetboxApi(url, token!, new Schema(reg)) : await openNetboxDatabase(url);
    const db = await prepareDatabase(settings, reg);
    try {
      const app = createContext(reg, settings, db, () => undefined);
      const sourceName = api ? url.replace(/\/+$/, '') : redactUrl(url);
      const progress = process.stderr.isTTY ? progressBar(process.stderr) : undefined;
      const report = await importNetbox(app, source, {
        merge: values.merge ?? false,
        dryRun: values['dry-run'] ?? false,
        message: `Imported from NetBox ${source.version} (${sourceName})`.slice(0, 200),
        sourceName,
        batchSize: values.batch ? Number(values.batch) : undefined,
        progress: progress?.update,
        media: values.media,
      });
      progress?.done();
      console.log(formatReport(report));
      if (values.report) fs.writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
      return 0;
    } finally {
      await db.close();
    }
  } catch (error) {
    if (error instanceof ImportError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await source?.close();
  }
}

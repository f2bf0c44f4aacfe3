/**
 * `npm run bench -- --only import`: `svc import-netbox` on NetBox's demo data (4.2) and on a synthetic NetBox
 * database of about 100,000 objects (devices, each with interfaces and an IP address on each), into SQLite and
 * PostgreSQL: seconds, rows per second and the peak memory of the process (the import streams its source).
 * Needs a PostgreSQL server (the source is a NetBox database) and `psql` to restore the demo dump.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { registry as generated } from '../generated/index.js';
import { createContext } from '../runtime/app.js';
import { loadSettings } from '../runtime/config.js';
import { connectDatabase } from '../runtime/db/connect.js';
import { migrate } from '../runtime/db/migrate.js';
import { importNetbox } from '../runtime/import/importer.js';
import { openNetboxDatabase } from '../runtime/import/netbox-database.js';
import { createPostgresDatabase, createSqliteDatabase, type BenchDatabase } from './databases.js';

const DUMP = path.resolve(import.meta.dirname, '../test/fixtures/netbox-demo/netbox-demo-v4.2.sql.gz');
const PEPPER = 'bench-pepper-0123456789-0123456789-0123456789-0123456789';

export interface ImportBenchResult {
  source: string;
  database: string;
  rows: number;
  imported: number;
  seconds: number;
  /** CPU seconds of this process (the import's own work, whatever else the machine runs). */
  cpuSeconds: number;
  /** Statements the import ran on the target database (reads and writes, BEGIN and COMMIT included). */
  statements: number;
  rowsPerSecond: number;
  peakRssMb: number;
  peakHeapMb: number;
  /**
   * The largest heap left after a full collection as each model begins (`node --expose-gc`, else null):
   * what the import holds, garbage aside. A streaming import holds about as much for 100,000 objects as for 6,000.
   */
  peakLiveHeapMb: number | null;
}

/** Runs the import scenarios on each database kind; returns their results (also printed). */
export async function benchImport(
  kinds: readonly ('sqlite' | 'postgres')[],
  devices: number,
  log: (message: string) => void,
): Promise<ImportBenchResult[]> {
  const server =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const demo = await restoreDemo(server);
  const results: ImportBenchResult[] = [];
  let synthetic: { url: string; drop: () => Promise<void> } | null = null;
  try {
    log(
      `import: building a synthetic NetBox database (${devices} devices, ${devices * 4} interfaces and IP addresses)…`,
    );
    synthetic = await syntheticNetbox(server, demo.name, devices);
    for (const kind of kinds) {
      for (const [label, url] of [
        ['NetBox 4.2 demo data', demo.url],
        [`synthetic (${devices * 9} objects)`, synthetic.url],
      ] as const) {
        const target = kind === 'sqlite' ? createSqliteDatabase() : await createPostgresDatabase();
        if ('skipped' in target) {
          log(`import: PostgreSQL skipped: ${target.skipped}`);
          break;
        }
        try {
          const result = await timeImport(label, url, target);
          log(
            `import: ${label} into ${target.label}: ${result.imported}/${result.rows} rows in ${result.seconds} s (${result.cpuSeconds} s of CPU, ${result.rowsPerSecond} rows/s, ${result.statements} statements), peak RSS ${result.peakRssMb} MB, heap ${result.peakHeapMb} MB${result.peakLiveHeapMb === null ? '' : ` (${result.peakLiveHeapMb} MB live)`}`,
          );
          results.push(result);
        } finally {
          await target.drop();
        }
      }
    }
  } finally {
    await synthetic?.drop();
    await demo.drop();
  }
  return results;
}

async function timeImport(label: string, sourceUrl: string, target: BenchDatabase): Promise<ImportBenchResult> {
  const settings = loadSettings({ DATABASE_URL: target.url }, { API_TOKEN_PEPPERS: { '1': PEPPER } });
  const db = connectDatabase(target.url);
  await migrate(db, generated.migrations);
  const source = await openNetboxDatabase(sourceUrl);
  global.gc?.();
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  let peakLive = 0;
  let model = '';
  const progress = (label: string): void => {
    if (label === model || !global.gc) return;
    model = label;
    global.gc();
    peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
  };
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 50);
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const statementsBefore = db.queryCount();
    const report = await importNetbox(
      createContext(generated, settings, db, () => undefined),
      source,
      {
        merge: false,
        dryRun: false,
        message: 'bench',
        sourceName: label,
        progress,
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const statements = db.queryCount() - statementsBefore;
    const rows = report.models.reduce((n, m) => n + m.read, 0);
    const imported = report.models.reduce((n, m) => n + m.imported, 0);
    return {
      source: label,
      database: target.label,
      rows,
      imported,
      seconds: Math.round(seconds * 10) / 10,
      cpuSeconds: Math.round((used.user + used.system) / 1e5) / 10,
      statements,
      rowsPerSecond: Math.round(imported / seconds),
      peakRssMb: Math.round(peakRss / 2 ** 20),
      peakHeapMb: Math.round(peakHeap / 2 ** 20),
      peakLiveHeapMb: global.gc ? Math.round(peakLive / 2 ** 20) : null,
    };
  } finally {
    clearInterval(sampler);
    await source.close();
    await db.close();
  }
}

async function withClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}

async function restoreDemo(server: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `netbox_bench_${randomBytes(4).toString('hex')}`;
  await withClient(server, async (client) => {
    await client.query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'netbox') THEN CREATE ROLE netbox; END IF; END $$`,
    );
    await client.query(`CREATE DATABASE ${name}`);
  });
  const url = databaseUrl(server, name);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('psql', ['-q', '-X', '-v', 'ON_ERROR_STOP=1', url], { stdio: ['pipe', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}`))));
    fs.createReadStream(DUMP).pipe(zlib.createGunzip()).pipe(child.stdin);
  });
  return { name, url, drop: () => dropDatabase(server, name) };
}

async function dropDatabase(server: string, name: string): Promise<void> {
  await withClient(server, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * A copy of the demo database plus `devices` devices, each with four interfaces and an IP address on each: new
 * rows are copies of demo rows (`jsonb_populate_record`) with their ids, names and references replaced.
 */
async function syntheticNetbox(
  server: string,
  template: string,
  devices: number,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `netbox_bench_${randomBytes(4).toString('hex')}`;
  await withClient(server, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = databaseUrl(server, name);
  const base = 1_000_000;
  await withClient(url, (client) =>
    client.query(`
      INSERT INTO dcim_device
      SELECT (jsonb_populate_record(NULL::dcim_device, to_jsonb(d) || jsonb_build_object(
        'id', ${base} + g, 'name', 'bench-device-' || g, 'rack_id', NULL, 'position', NULL, 'face', '',
        'primary_ip4_id', NULL, 'primary_ip6_id', NULL, 'oob_ip_id', NULL, 'virtual_chassis_id', NULL,
        'vc_position', NULL, 'vc_priority', NULL, 'asset_tag', NULL, 'serial', '', 'location_id', NULL))).*
      FROM (SELECT * FROM dcim_device ORDER BY id LIMIT 1) d, generate_series(1, ${devices}) g;

      INSERT INTO dcim_interface
      SELECT (jsonb_populate_record(NULL::dcim_interface, to_jsonb(i) || jsonb_build_object(
        'id', ${base} + g * 4 + k, 'device_id', ${base} + g, 'name', 'eth' || k, '_name', 'eth' || k,
        'lag_id', NULL, 'parent_id', NULL, 'bridge_id', NULL, 'cable_id', NULL, '_path_id', NULL,
        'wireless_link_id', NULL, 'untagged_vlan_id', NULL, 'primary_mac_address_id', NULL, 'vrf_id', NULL,
        'module_id', NULL, 'mark_connected', false, 'cable_end', ''))).*
      FROM (SELECT * FROM dcim_interface WHERE lag_id IS NULL AND parent_id IS NULL ORDER BY id LIMIT 1) i,
        generate_series(1, ${devices}) g, generate_series(0, 3) k;

      INSERT INTO ipam_ipaddress
      SELECT (jsonb_populate_record(NULL::ipam_ipaddress, to_jsonb(a) || jsonb_build_object(
        'id', ${base} + g * 4 + k, 'address', host(inet '10.0.0.0' + (g * 4 + k)) || '/32',
        'assigned_object_type_id', (SELECT id FROM django_content_type WHERE app_label = 'dcim' AND model = 'interface'),
        'assigned_object_id', ${base} + g * 4 + k, 'nat_inside_id', NULL, 'vrf_id', NULL, 'dns_name', ''))).*
      FROM (SELECT * FROM ipam_ipaddress ORDER BY id LIMIT 1) a, generate_series(1, ${devices}) g, generate_series(0, 3) k;
    `),
  );
  return { url, drop: () => dropDatabase(server, name) };
}

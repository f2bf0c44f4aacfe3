import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { requestJson } from './http-client.js';
import { createPostgresDatabase, createSqliteDatabase, type BenchDatabase } from './databases.js';
import { startService } from './service.js';

/**
 * `npm run bench:export [-- --devices N] [-- --db sqlite|postgres]` (after `npm run build`): seeds N devices
 * (10,000 by default), then for each export starts a fresh `svc serve` process on that database and measures
 * `?export` over all of them: the time to the last byte, the bytes, and the server process's peak RSS (Linux's
 * VmHWM) once started and warmed up and after the export, for a streamed export template (the
 * `{{#each queryset}}` shape), the same list as CSV, and a template that names `queryset` elsewhere and so
 * renders whole (for comparison).
 */

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const DEVICES = Number(option('devices') ?? 10_000);
const ONLY = option('db');
/** `--heap MB`: the servers' V8 old-space limit, to show what an export needs rather than what V8 lets grow. */
const HEAP = option('heap');

const STREAMED = [
  'name,site,role,type,status,serial',
  '{{#each queryset}}',
  '{{name}},{{site.name}},{{role.name}},{{device_type.model}},{{status.label}},{{serial}}',
  '{{/each}}',
].join('\n');
const WHOLE = `{{queryset.length}} devices\n${STREAMED}`;

interface Measure {
  what: string;
  status: number;
  ms: number;
  bytes: number;
  idlePeakRssMb: number;
  exportPeakRssMb: number;
  growthMb: number;
}

async function main(): Promise<void> {
  const databases: BenchDatabase[] = [];
  if (ONLY !== 'postgres') databases.push(createSqliteDatabase());
  if (ONLY !== 'sqlite') {
    const pgDb = await createPostgresDatabase();
    if ('skipped' in pgDb) console.error(`PostgreSQL skipped: ${pgDb.skipped}`);
    else databases.push(pgDb);
  }
  for (const database of databases) {
    const service = await startService(database.url);
    try {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const post = <T>(path: string, body: unknown): Promise<T> =>
        requestJson<T>(agent, service.port, 'POST', path, { authorization: service.authorization }, 201, body);
      const seeded = performance.now();
      const site = await post<{ id: number }>('/api/dcim/sites/', { name: 'Site 1', slug: 'site-1' });
      const maker = await post<{ id: number }>('/api/dcim/manufacturers/', { name: 'Maker', slug: 'maker' });
      const type = await post<{ id: number }>('/api/dcim/device-types/', {
        manufacturer: maker.id,
        model: 'Model 1',
        slug: 'model-1',
      });
      const role = await post<{ id: number }>('/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf' });
      for (let offset = 0; offset < DEVICES; offset += 1000) {
        const count = Math.min(1000, DEVICES - offset);
        await post(
          '/api/dcim/devices/',
          Array.from({ length: count }, (_, i) => ({
            name: `device-${String(offset + i).padStart(6, '0')}`,
            site: site.id,
            device_type: type.id,
            role: role.id,
            serial: `SN${offset + i}`,
          })),
        );
      }
      console.log(`${database.label}: ${DEVICES} devices seeded in ${Math.round(performance.now() - seeded)} ms`);
      for (const [name, code] of [
        ['streamed', STREAMED],
        ['whole', WHOLE],
      ]) {
        await post('/api/extras/export-templates/', {
          name,
          object_types: ['dcim.device'],
          template_code: code,
          mime_type: 'text/csv',
        });
      }
      await service.close();
      const results: Measure[] = [];
      for (const [what, query] of [
        ['export template (streamed)', 'export=streamed'],
        ['CSV (?export)', 'export'],
        ['export template (whole)', 'export=whole'],
      ] as const) {
        results.push(await measure(database.url, what, `/api/dcim/devices/?${query}`));
      }
      console.table(results);
    } finally {
      await database.drop();
    }
  }
}

const PORT = 18_765;

/** A fresh `svc serve` on the database (anonymous reading allowed), answering once it is up. */
async function serve(databaseUrl: string): Promise<ChildProcess> {
  const flags = HEAP ? [`--max-old-space-size=${HEAP}`] : [];
  const child = spawn(process.execPath, [...flags, 'bin/svc.js', 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOGIN_REQUIRED: 'false',
      EXEMPT_VIEW_PERMISSIONS: '["*"]',
      EMBEDDED_WORKER: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ok = await get('/api/dcim/devices/?limit=1').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return child;
  }
  child.kill();
  throw new Error('svc serve did not start');
}

function get(path: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: PORT, path }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The process's peak resident set so far (VmHWM), in MiB. */
function peakRss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/** One export on a fresh server: its time, bytes and the server's peak RSS before and after. */
async function measure(databaseUrl: string, what: string, path: string): Promise<Measure> {
  const child = await serve(databaseUrl);
  try {
    await get('/api/dcim/devices/?limit=50');
    const idle = peakRss(child.pid!);
    const started = performance.now();
    const { status, bytes } = await get(path).catch(() => ({ status: 0, bytes: 0 }));
    const ms = Math.round(performance.now() - started);
    const peak = peakRss(child.pid!);
    return {
      what,
      status,
      ms,
      bytes,
      idlePeakRssMb: idle,
      exportPeakRssMb: peak,
      growthMb: Math.round((peak - idle) * 10) / 10,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

await main();

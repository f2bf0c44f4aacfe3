import http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { request } from './http-client.js';
import type { RunningService } from './service.js';

/**
 * The comparison is only honest if the baseline does the service's job: each page must be byte-identical
 * between the two; anything else throws, naming the first difference.
 */
export async function verifySamePages(
  service: RunningService,
  baselinePort: number,
  pagePaths: readonly string[],
  log: (message: string) => void,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  try {
    for (const pagePath of pagePaths) {
      const fromService = await request(agent, service.port, 'GET', pagePath, { authorization: service.authorization });
      const fromBaseline = await request(agent, baselinePort, 'GET', pagePath, {
        authorization: service.authorization,
      });
      if (fromService.status !== 200 || fromBaseline.status !== 200) {
        throw new Error(
          `verification of ${pagePath}: service ${fromService.status}, baseline ${fromBaseline.status}: ${fromBaseline.text.slice(0, 300)}`,
        );
      }
      if (fromService.text !== fromBaseline.text) {
        const expected: unknown = JSON.parse(fromService.text);
        const actual: unknown = JSON.parse(fromBaseline.text);
        const where = isDeepStrictEqual(expected, actual)
          ? 'in key order'
          : `at ${firstDifference(expected, actual, '$')}`;
        throw new Error(`the baseline's page differs from the service's for ${pagePath} ${where}`);
      }
      log(`verified: baseline and service return the same bytes for ${pagePath} (${fromService.text.length} bytes)`);
    }
  } finally {
    agent.destroy();
  }
}

/**
 * The baseline's writes store what the service stores and answer what it answers: each write is sent to the
 * baseline, and its response must be byte-identical to the service's own GET of the object written (so the
 * stored row is the service's too).
 */
export async function verifySameWrites(
  service: RunningService,
  baselinePort: number,
  writes: readonly { method: string; path: string; body: unknown; status: number }[],
  log: (message: string) => void,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  const headers = { authorization: service.authorization };
  try {
    for (const write of writes) {
      const written = await request(agent, baselinePort, write.method, write.path, headers, write.body);
      if (written.status !== write.status)
        throw new Error(`verification of ${write.method} ${write.path}: baseline ${written.status}: ${written.text}`);
      const objects = JSON.parse(written.text) as unknown;
      const list = (Array.isArray(objects) ? objects : [objects]) as { url: string }[];
      for (const object of list) {
        const path = new URL(object.url).pathname;
        const fromService = await request(agent, service.port, 'GET', path, headers);
        if (fromService.text !== JSON.stringify(object)) {
          const expected: unknown = JSON.parse(fromService.text);
          const where = isDeepStrictEqual(expected, object)
            ? `in key order at ${firstOrderDifference(expected, object, '$')}`
            : `at ${firstDifference(expected, object, '$')}`;
          throw new Error(
            `the baseline's answer to ${write.method} ${write.path} differs from the service's ${path} ${where}`,
          );
        }
      }
      log(
        `verified: the baseline's ${write.method} ${write.path} answers the service's bytes (${written.text.length} bytes)`,
      );
    }
  } finally {
    agent.destroy();
  }
}

/** Where two equal values first list their keys in another order. */
function firstOrderDifference(a: unknown, b: unknown, at: string): string {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return `${at} (none found)`;
  const left = Object.keys(a);
  const right = Object.keys(b);
  if (left.join() !== right.join()) return `${at}: service ${left.join(',')} vs baseline ${right.join(',')}`;
  for (const key of left) {
    const found = firstOrderDifference(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      `${at}.${key}`,
    );
    if (!found.endsWith('(none found)')) return found;
  }
  return `${at} (none found)`;
}

function firstDifference(a: unknown, b: unknown, at: string): string {
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return `${at}: service ${JSON.stringify(a)} vs baseline ${JSON.stringify(b)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const left = (a as Record<string, unknown>)[key];
    const right = (b as Record<string, unknown>)[key];
    if (!isDeepStrictEqual(left, right)) return firstDifference(left, right, `${at}.${key}`);
  }
  return `${at} (no difference found)`;
}

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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { show, Tally } from './support.js';

/**
 * `__regex`/`__iregex` lookups cannot stall the server: a pattern that makes a backtracking engine run for
 * minutes (`^(a+)+$` against `aaa…a!`) answers at once, while another request is served; invalid patterns
 * are a 400 and nothing else is a 5xx, on both databases.
 */
describe.each(DIALECTS)('regular expression lookups on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    // Any reader can send such a pattern: anonymous clients included.
    app = await startTestApp(dialect, { settings: { EXEMPT_VIEW_PERMISSIONS: ['*'] } });
    const sites = Array.from({ length: 50 }, (_, i) => ({
      name: `${'a'.repeat(32 + (i % 5))}!${i}`,
      slug: `pathological-${i}`,
      description: `${'a'.repeat(199)}!`,
    }));
    sites.push({ name: 'Alpha\nBeta', slug: 'two-lines', description: '' });
    const created = await app.api.post('/api/dcim/sites/', sites);
    expect(created.status, show(created)).toBe(201);
  });
  afterAll(async () => app?.close());

  it('answers a catastrophic pattern at once, and another request while it runs', async () => {
    for (const lookup of ['name__regex', 'name__iregex', 'description__regex']) {
      const pattern = encodeURIComponent('^(a+)+$');
      const started = Date.now();
      const slow = app.anonymous.get(`/api/dcim/sites/?${lookup}=${pattern}`);
      // The server still answers another client while the lookup runs (or has run): within a generous second.
      const status = await app.anonymous.get('/api/status/');
      const statusMs = Date.now() - started;
      const result = await slow;
      expect(status.status).toBe(200);
      expect(statusMs, `/api/status/ took ${statusMs} ms beside ${lookup}`).toBeLessThan(1000);
      expect(result.status, show(result)).toBe(200);
      expect(result.body.count).toBe(0);
    }
  });

  it("checks a custom field's validation regex in linear time too", async () => {
    const field = await app.api.post('/api/extras/custom-fields/', {
      name: 'code',
      type: 'text',
      object_types: ['dcim.site'],
      validation_regex: '^(a+)+$',
    });
    expect(field.status, show(field)).toBe(201);
    const slow = app.api.post('/api/dcim/sites/', {
      name: 'regex-cf',
      slug: 'regex-cf',
      custom_fields: { code: `${'a'.repeat(40)}!` },
    });
    const started = Date.now();
    const status = await app.anonymous.get('/api/status/');
    expect(status.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    const refused = await slow;
    expect(refused.status, show(refused)).toBe(400);
    expect(refused.body).toEqual({
      custom_fields: { code: ["Invalid value for custom field 'code': Values must match this regex: '^(a+)+$'"] },
    });
    const deleted = await app.api.delete(`/api/extras/custom-fields/${field.body.id}/`);
    expect(deleted.status).toBe(204);
  });

  it('matches as PostgreSQL does: anywhere in the value, dots across lines, case folding with iregex', async () => {
    const names = async (query: string): Promise<string[]> => {
      const response = await app.anonymous.get(`/api/dcim/sites/?${query}&brief=1&limit=100`);
      expect(response.status, show(response)).toBe(200);
      return (response.body.results as { name: string }[]).map((s) => s.name).sort();
    };
    expect(await names(`name__regex=${encodeURIComponent('!4[0-9]$')}`)).toHaveLength(10);
    expect(await names(`name__regex=${encodeURIComponent('Alpha.Beta')}`)).toEqual(['Alpha\nBeta']);
    expect(await names(`name__iregex=${encodeURIComponent('^ALPHA')}`)).toEqual(['Alpha\nBeta']);
    expect(await names(`name__regex=${encodeURIComponent('^ALPHA')}`)).toEqual([]);
    expect(await names(`name__regex=${encodeURIComponent('[[:upper:]][[:lower:]]+\\y')}`)).toEqual(['Alpha\nBeta']);
  });

  it('refuses invalid patterns with a 400 and never fails on odd but valid ones', async () => {
    const tally = new Tally();
    for (const pattern of ['(', '[a-', 'a{2,1}', '*a', '(?<', 'a)']) {
      const response = await tally.send(
        app.anonymous,
        'GET',
        `/api/dcim/sites/?name__regex=${encodeURIComponent(pattern)}`,
      );
      expect(response.status, `${pattern}: ${show(response)}`).toBe(400);
    }
    const odd = ['\\-', 'a{1', '[[:alpha:]]', '(?i)alpha', '\\d{1,3}', 'x{0,1000}', '(a)\\1', '(?=a)', '\\p{L}', '\\Z'];
    for (const pattern of odd) {
      for (const lookup of ['regex', 'iregex']) {
        const url = `/api/dcim/sites/?name__${lookup}=${encodeURIComponent(pattern)}`;
        const response = await tally.send(app.anonymous, 'GET', url);
        expect([200, 400], `${lookup} ${pattern}: ${show(response)}`).toContain(response.status);
      }
    }
    // A pattern too large to run in bounded time is refused on SQLite; PostgreSQL runs it in its own process.
    const huge = await tally.send(
      app.anonymous,
      'GET',
      `/api/dcim/sites/?name__regex=${encodeURIComponent('(a{999})'.repeat(20))}`,
    );
    expect([200, 400]).toContain(huge.status);
    if (dialect === 'sqlite') expect(huge.body).toEqual({ name__regex: ['Regular expression too complex.'] });
    tally.expectClean();
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { HAS_CHROMIUM, launchBrowser, screenshot } from '../support/browser.js';

/**
 * A person with a browser: signs in, browses from `/api/` to a site by clicking the links of the JSON,
 * edits the query line and pages through a list, signs out. Screenshots of every page go to
 * artifacts/screenshots/browse-*.png.
 */
describe.skipIf(!HAS_CHROMIUM)('browsing the API in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let parisId: number;

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    const user = await app.api.post('/api/users/users/', { username: 'dana', password: 'Dana-Password-12' });
    expect(user.status, user.text).toBe(201);
    const permission = await app.api.post('/api/users/permissions/', {
      name: 'view sites',
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [user.body.id],
    });
    expect(permission.status, permission.text).toBe(201);
    for (const [name, slug] of [
      ['AMS1 Amsterdam', 'ams1'],
      ['FRA1 Frankfurt', 'fra1'],
      ['PAR1 Paris', 'par1'],
    ]) {
      const site = await app.api.post('/api/dcim/sites/', { name, slug, status: 'active', description: `${name} DC` });
      expect(site.status, site.text).toBe(201);
      if (slug === 'par1') parisId = site.body.id;
    }
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const link = (url: string) => page.getByRole('link', { name: `"${url}"`, exact: true }).first();

  it('signs in, clicks from /api/ to a site, edits the query line and signs out', async () => {
    const api = `${app.baseUrl}/api`;
    await page.goto(`${app.baseUrl}/api/dcim/sites/`);
    expect(await page.locator('h1').textContent()).toBe('Sites');
    await expect.poll(() => page.getByText('Authentication credentials were not provided.').count()).toBe(1);
    await screenshot(page, 'browse-anonymous');

    await page.getByRole('link', { name: 'Sign in' }).first().click();
    await page.waitForURL(/\/login\//);
    await page.getByLabel('Username').fill('dana');
    await page.getByLabel('Password').fill('Dana-Password-12');
    await screenshot(page, 'browse-login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${api}/dcim/sites/`);

    await page.goto(`${api}/`);
    expect(await page.locator('h1').textContent()).toBe('API Root');
    expect(await page.locator('header').textContent()).toContain('Signed in as dana');
    await screenshot(page, 'browse-root');

    await link(`${api}/dcim/`).click();
    await page.waitForURL(`${api}/dcim/`);
    expect(await page.locator('pre.response').textContent()).toContain('HTTP 200 OK');
    await screenshot(page, 'browse-dcim');

    await link(`${api}/dcim/sites/`).click();
    await page.waitForURL(`${api}/dcim/sites/`);
    expect(await page.locator('pre.response').textContent()).toContain('"count": 3');
    await screenshot(page, 'browse-sites');

    await link(`${api}/dcim/sites/${parisId}/`).click();
    await page.waitForURL(`${api}/dcim/sites/${parisId}/`);
    expect(await page.locator('h1').textContent()).toMatch(/PAR1 Paris$/);
    const response = (await page.locator('pre.response').textContent())!;
    expect(response).toMatch(/^HTTP 200 OK\n/);
    expect(response).toMatch(/\nAPI-Version: \d+\.\d+\n/);
    expect(response).toMatch(/\nX-Request-ID: [0-9a-f-]{36}\n/);
    expect(response).toContain('ETag: W/');
    await screenshot(page, 'browse-site');

    await page.goBack();
    await page.waitForURL(`${api}/dcim/sites/`);
    await page.getByLabel('Query').fill('brief=1&limit=2&ordering=-name');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(`${api}/dcim/sites/?brief=1&limit=2&ordering=-name`);
    expect(await page.getByLabel('Query').inputValue()).toBe('brief=1&limit=2&ordering=-name');
    const brief = (await page.locator('pre.response').textContent())!;
    expect(brief).toContain('"PAR1 Paris"');
    expect(brief).not.toContain('"status"');
    await screenshot(page, 'browse-query');

    await page.getByRole('link', { name: 'Next »' }).click();
    await page.waitForURL(/offset=2/);
    expect(await page.locator('pre.response').textContent()).toContain('"AMS1 Amsterdam"');
    await screenshot(page, 'browse-next');

    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login\//);
    await page.goto(`${api}/`);
    expect(await page.locator('header').textContent()).toContain('Sign in');
  });
});

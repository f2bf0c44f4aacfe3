import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); browser tests skip themselves without it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM);

/** Screenshots of every page a browser test visits, kept as test artifacts (git-ignored). */
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../artifacts/screenshots');

/** Launches headless Chromium with the flags CI needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Saves a full-page screenshot as `artifacts/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

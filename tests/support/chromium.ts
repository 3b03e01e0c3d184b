/**
 * Debian's Chromium for the browser tests, driven by playwright-core (no browser download): where it
 * is, the flags it runs with here, where screenshots go, and why a suite skips without it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { REPO_ROOT } from './process';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where the browser tests leave their screenshots. */
export const SHOTS = join(REPO_ROOT, '.artifacts/e2e');

/** Why the browser tests cannot run here (undefined when they can). */
export const chromiumSkipReason = (): string | undefined =>
  existsSync(CHROMIUM)
    ? undefined
    : `${CHROMIUM} is missing: run infra/local/install-chromium.sh (pnpm test does)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A page of a new browser context (1280×900 unless `options` say otherwise) whose uncaught errors are
 * collected into `errors`. Its time-outs are generous: the test command runs suites side by side.
 */
export async function newConsolePage(
  browser: Browser,
  errors: string[],
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  return page;
}

/** Opens the console and signs in on its API-key form (as `runAs` when given), until the menu shows. */
export async function signInWithKey(page: Page, baseUrl: string, key: string, runAs = ''): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  const form = page.getByRole('form', { name: 'Sign in with an API key' });
  await form.getByLabel('API key').fill(key);
  if (runAs) await form.getByLabel('Run as (optional)').fill(runAs);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Saves a flow's screen under SHOTS; a flow whose page threw any error since the last one fails here. */
export async function screenshot(page: Page, name: string, errors: string[]): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  assert.deepEqual(errors.splice(0), [], 'uncaught errors in the page');
}

/** axe-core's browser build, read once when first needed. */
let axeSource: string | undefined;

/**
 * axe-core's serious and critical violations on the page as it is now, each as `<name>: <rule>
 * (<impact>) at <targets>`. axe is injected as a script (no network): the page's context must bypass CSP.
 */
export async function seriousViolations(page: Page, name: string): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate<{ id: string; impact: string; targets: string[] }[]>(
    `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) =>
      ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) })))`,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) at ${v.targets.join(', ')}`);
}

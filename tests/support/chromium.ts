/**
 * Debian's Chromium for the browser tests, driven by playwright-core (no browser download): where it
 * is, the flags it runs with here, where screenshots go, and why a suite skips without it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
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

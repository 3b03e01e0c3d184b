/**
 * The set-up the web console's browser suites share: a fresh embedded instance and Chromium, started
 * before the suite and stopped after it, with a page signed in on the console and a screenshot that
 * fails the flow on any uncaught page error. Call it first inside the suite's `describe`; a suite's own
 * `before` hooks, registered after it, run once both are up.
 */
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium, newConsolePage, SHOTS, screenshot, signInWithKey } from './chromium';
import { type Api, apiClient } from './http';
import { startEmbedded, type Target, type TargetOptions } from './targets';

export interface ConsoleSuite {
  readonly target: Target;
  readonly browser: Browser;
  /** An API client on the target. */
  readonly api: Api;
  /** A console page of a new browser context (at `options`' viewport), not signed in. */
  page(options?: BrowserContextOptions): Promise<Page>;
  /**
   * A new browser context (its own session storage) signed in with `key` (the admin's unless given)
   * and `runAs`, at `options`' viewport.
   */
  signedIn(runAs?: string, options?: BrowserContextOptions, key?: string): Promise<Page>;
  /** Saves the flow's last screen; a flow whose page threw any error fails here. */
  shot(page: Page, name: string): Promise<void>;
}

/** `options`: how the embedded instance starts (e.g. `env` moving the workflow service's clock). */
export function consoleSuite(options: TargetOptions = {}): ConsoleSuite {
  let target: Target | undefined;
  let browser: Browser | undefined;
  let api: Api | undefined;
  /** Uncaught errors of any page: each flow's shot checks there were none. */
  const pageErrors: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [target, browser] = await Promise.all([startEmbedded(options), launchChromium()]);
    api = apiClient(target.baseUrl);
  });
  after(async () => {
    await browser?.close();
    await target?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('the console suite is not started (use it inside a test or hook)');
    return value;
  };
  const suite: ConsoleSuite = {
    get target() {
      return started(target);
    },
    get browser() {
      return started(browser);
    },
    get api() {
      return started(api);
    },
    page: (options = {}) => newConsolePage(suite.browser, pageErrors, options),
    async signedIn(runAs = '', options = {}, key = suite.target.adminKey) {
      const page = await suite.page(options);
      await signInWithKey(page, suite.target.baseUrl, key, runAs);
      return page;
    },
    shot: (page, name) => screenshot(page, name, pageErrors),
  };
  return suite;
}

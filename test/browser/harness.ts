import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Kernel, KernelConfig } from '@hickory/core';
import { createSandbox, type SandboxDatabase } from '@hickory/sandbox/app';
import { chromium, type Browser, type BrowserContext, type Page, type Response as PageResponse } from 'playwright-core';

/** Debian's Chromium: the only browser these tests use (none is ever downloaded). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
  '--no-first-run', '--disable-component-update', '--disable-sync',
];

/** Where every page visited is saved as a PNG (gitignored). */
const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));

/**
 * Why the browser suites are skipped on this machine, or `undefined` when they run. With `CI`
 * set a missing Chromium is not a reason to skip: {@link BrowserSession.open} fails instead.
 *
 * @example
 * ```ts
 * describe('landing page', { skip: skipReason() }, () => { ... });
 * ```
 */
export function skipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH) || process.env['CI']) return undefined;
  return `no Chromium at ${CHROMIUM_PATH}: browser tests skipped (apt-get install chromium; with CI set they fail instead)`;
}

/**
 * Debian's headless Chromium with the suites' flags (and `extraArgs`), for a test that serves an
 * app of its own.
 *
 * @example
 * ```ts
 * const browser = await launchChromium();
 * try { const page = await browser.newPage(); … } finally { await browser.close(); }
 * ```
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], timeout: 20_000 });
}

/**
 * The sandbox served on 127.0.0.1 (port 0) and one headless Chromium context pointed at it.
 * Screenshots are named `<suite>-<nn>-<what>.png`, numbered in the order taken.
 *
 * @example
 * ```ts
 * const session = await BrowserSession.open('books');
 * const page = await session.newPage();
 * await session.visit(page, '/books/');
 * await session.close();
 * ```
 */
export class BrowserSession {
  private shots = 0;

  private constructor(
    readonly suite: string,
    readonly app: Kernel,
    readonly base: string,
    readonly browser: Browser,
    readonly context: BrowserContext,
  ) {}

  /**
   * `overrides` go to the sandbox's configuration (`{ logger: { stream } }` to read its log);
   * `database` to its database (`{ seed: true }`: the books a fresh `npm start` shows).
   */
  static async open(suite: string, overrides: KernelConfig = {}, database: SandboxDatabase = {}): Promise<BrowserSession> {
    if (!existsSync(CHROMIUM_PATH)) {
      throw new Error(`No Chromium at ${CHROMIUM_PATH} and CI is set: install Debian's "chromium" package (.ci/run does).`);
    }
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    // A previous run's pictures of this suite would mix with this run's numbering.
    for (const name of readdirSync(SCREENSHOT_DIR)) if (name.startsWith(`${suite}-`)) rmSync(`${SCREENSHOT_DIR}${name}`);
    const app = await createSandbox({ logger: false, ...overrides }, database);
    let browser: Browser | undefined;
    try {
      const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
      browser = await launchChromium();
      const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1024, height: 720 } });
      context.setDefaultTimeout(10_000);
      context.setDefaultNavigationTimeout(10_000);
      return new BrowserSession(suite, app, url.replace(/\/$/, ''), browser, context);
    } catch (error) {
      await browser?.close();
      await closeApp(app);
      throw error;
    }
  }

  /** The absolute URL of a path of the sandbox. */
  url(path: string): string {
    return new URL(path, `${this.base}/`).href;
  }

  /** The path and query of an absolute URL of the sandbox (what the tests compare). */
  pathOf(url: string): string {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  }

  newPage(): Promise<Page> {
    return this.context.newPage();
  }

  /** Opens `path` (following redirects), saves a screenshot, and returns the final response. */
  async visit(page: Page, path: string, name = path): Promise<PageResponse> {
    const response = await page.goto(this.url(path), { waitUntil: 'load' });
    if (response === null) throw new Error(`no response for ${path}`);
    await this.screenshot(page, name);
    return response;
  }

  /** Saves what `page` shows now. */
  async screenshot(page: Page, name: string): Promise<void> {
    const slug = name.replace(/^\/+/, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'root';
    const file = `${this.suite}-${String(++this.shots).padStart(2, '0')}-${slug}.png`;
    await page.screenshot({ path: `${SCREENSHOT_DIR}${file}`, fullPage: true });
  }

  /** Closes the browser, then the app (and removes the sandbox's uploaded files). */
  async close(): Promise<void> {
    try {
      await this.browser.close();
    } finally {
      await closeApp(this.app);
    }
  }
}

async function closeApp(app: Kernel): Promise<void> {
  try {
    const files = (app.root as { files?: { clear?: () => Promise<void> } } | undefined)?.files;
    await files?.clear?.();
  } finally {
    await app.close();
  }
}

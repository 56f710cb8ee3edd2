// Two apps on two ports of 127.0.0.1 (two origins of one site) and a headless Chromium: what the
// CSRF and session browser tests need, where the sandbox harness (harness.ts) serves one showcase.
import { existsSync } from 'node:fs';
import type { Kernel } from '@hickory/core';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

const CHROMIUM_PATH = '/usr/bin/chromium';
// As harness.ts launches it: nothing fetched from the network, no sandbox (containers), no GPU.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

/** Two apps listening on 127.0.0.1 and a Chromium context to browse them. */
export interface TwoOrigins {
  /** `http://127.0.0.1:<port>` of the protected app. */
  readonly app: string;
  /** `http://127.0.0.1:<port>` of the other app (same site, another origin). */
  readonly other: string;
  readonly context: BrowserContext;
  /** Closes the browser, then both apps. */
  close(): Promise<void>;
}

/**
 * Serves `app` and `other` on free ports of 127.0.0.1 and opens Chromium.
 *
 * @example
 * ```ts
 * const origins = await twoOrigins(protectedApp, attackerApp);
 * const page = await origins.context.newPage();
 * ```
 */
export async function twoOrigins(app: Kernel, other: Kernel): Promise<TwoOrigins> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH} and CI is set: install Debian's "chromium" package (.ci/run does).`);
  let browser: Browser | undefined;
  try {
    const [served, attacker] = await Promise.all([app.listen({ port: 0, host: '127.0.0.1' }), other.listen({ port: 0, host: '127.0.0.1' })]);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 20_000 });
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    context.setDefaultNavigationTimeout(10_000);
    const opened = browser;
    return {
      app: served.url.replace(/\/$/, ''),
      other: attacker.url.replace(/\/$/, ''),
      context,
      async close() {
        try {
          await opened.close();
        } finally {
          await Promise.all([app.close(), other.close()]);
        }
      },
    };
  } catch (error) {
    await browser?.close();
    await Promise.all([app.close(), other.close()]);
    throw error;
  }
}

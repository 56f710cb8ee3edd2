import type { DebugSection, DebugSectionSource } from './debug-page.ts';
import { isDevelopment } from './development.ts';
import type { Logger } from './logger.ts';
import type { Request } from './request.ts';

/**
 * The debug page's switch and the plugins' sections of it. `debug: true` holds in development
 * only (`NODE_ENV` unset, `development` or `test`): anywhere else it is refused loudly rather than
 * obeyed, since the page shows stacks and request details.
 *
 * @example
 * ```ts
 * const debug = new DebugSections();
 * debug.add((request) => ({ title: 'Tenant', rows: [['id', String(request.context['tenant'])]] }));
 * debug.decide(true, logger); // true where NODE_ENV is unset, development or test
 * ```
 */
export class DebugSections {
  private readonly sources: DebugSectionSource[] = [];
  private on = false;

  /** True once `decide` turned the page on. */
  get enabled(): boolean {
    return this.on;
  }

  /** Adds a plugin's section. */
  add(source: DebugSectionSource): void {
    this.sources.push(source);
  }

  /**
   * Settles `debug` at `ready()`: on only where `NODE_ENV` is unset, `development` or `test`
   * (trimmed, any case); refused with a warning anywhere else (`production`, `Production`, `prod`).
   */
  decide(debug: boolean, logger: Logger): boolean {
    if (!debug) return (this.on = false);
    if (!isDevelopment()) {
      logger.warn(
        `debug: true is refused because NODE_ENV is ${JSON.stringify(process.env['NODE_ENV'])}, not a development setting (unset, "development" or "test"): ` +
          'an unhandled error answers the plain 500 (the debug page shows stacks and request details)',
      );
      return (this.on = false);
    }
    // Stacks on the page then point at the TypeScript lines wherever source maps exist.
    process.setSourceMapsEnabled?.(true);
    return (this.on = true);
  }

  /** The sections for a failed request; a section that throws is logged and left out. */
  sectionsFor(request: Request, logger: Logger): DebugSection[] {
    const sections: DebugSection[] = [];
    for (const source of this.sources) {
      try {
        const section = source(request);
        if (section !== undefined) sections.push(section);
      } catch (error) {
        logger.error('a debug section failed; the page is shown without it', error);
      }
    }
    return sections;
  }
}

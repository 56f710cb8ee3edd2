/**
 * `@hickory/renderer/conformance`: the test suite every renderer runs from its own test file,
 * with templates written in its own syntax. A third-party engine passes it the same way.
 *
 * @example
 * ```ts
 * import { runRendererConformance } from '@hickory/renderer/conformance';
 * runRendererConformance({ plugin: ejsRenderer, engine: 'ejs', extension: 'ejs', fixtures });
 * ```
 */
export { runRendererConformance, type ConformanceOptions } from './suite.ts';
export { OPTION_LIKE_KEYS, PAGE_HTML, PAGE_NAMESPACE, normalizeHtml, type ConformanceFixtures } from './fixtures.ts';
export { captureLog, kernelFor, makeWorkspace, removeWorkspaces, renderRoutes, type CapturedLog, type RenderRoute, type Workspace } from './workspace.ts';

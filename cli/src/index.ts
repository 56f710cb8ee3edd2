/**
 * `@hickory/cli`: the `hickory` command (`serve` with workers and reload, `create`), and what a tool
 * needs to run its commands itself: the same functions the command calls, its argument parser,
 * and the app loading it does.
 *
 * @example
 * ```ts
 * import { serve } from '@hickory/cli';
 * await serve({ config: 'config.ts', workers: 2 });
 * ```
 */
export { serve, type ServeOptions } from './serve.ts';
export { superviseWithReload, type ReloadOptions } from './reload.ts';
export { loadApp, type LoadedApp } from './load-app.ts';
export { parseCli, type CliCommand, type RoutesFormat } from './cli-args.ts';
export { createProject } from './create-project.ts';
export { PROJECT_TEMPLATES, type ProjectTemplate } from './project-files.ts';
export { CLI_ERRORS, type CliErrorCode } from './errors.ts';

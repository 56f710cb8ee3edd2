/**
 * `hickory`: the whole framework in one import. `createApp()` is a kernel with every
 * first-party plugin in use; the rest re-exports the packages' public names.
 *
 * @example
 * ```ts
 * import { createApp, expose } from 'hickory';
 * class Root { @expose() index() { return 'Hello'; } }
 * await createApp({ root: new Root() }).listen({ port: 8080 });
 * ```
 */
export { createApp } from './create-app.ts';
export { requestLog, consoleLogger } from './request-log.ts';
export { serve, defaultWorkers, closeOnSignals, type ServeOptions } from './serve.ts';
export { superviseWorkers, type WorkerMessage } from './workers.ts';
export { superviseWithReload } from './reload.ts';
export { watchTree, isIgnoredName, type TreeWatcher } from './watch-tree.ts';
export { loadApp, configFile, listenOn, type LoadedApp } from './load-app.ts';
export { parseCli, type CliCommand } from './cli-args.ts';
export { HELP, hickoryVersion } from './help.ts';
export { CLI_ERRORS, cliError, oneLine, type CliErrorCode } from './errors.ts';
export { createProject, hickoryDependency, PROJECT_TEMPLATES, type ProjectTemplate } from './create-project.ts';
export { projectFiles } from './project-files.ts';
export * from '@hickory/core';
export * from '@hickory/dispatch';
export * from '@hickory/rest';
export * from '@hickory/multipart';
export * from '@hickory/static';
export * from '@hickory/ejs';
export * from '@hickory/nunjucks';
export * from '@hickory/handlebars';

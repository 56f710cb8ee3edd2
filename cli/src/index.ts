/**
 * `@hickory/cli`: the `hickory` command (`serve` with workers and reload, `create`) and the pieces
 * it is made of, for tools that drive it.
 *
 * @example
 * ```ts
 * import { serve } from '@hickory/cli';
 * await serve({ config: 'config.ts', workers: 2 });
 * ```
 */
export { requestLog, consoleLogger } from './request-log.ts';
export { serve, defaultWorkers, closeOnSignals, type ServeOptions } from './serve.ts';
export { serveLogger } from './serve-logger.ts';
export { superviseWorkers, type WorkerMessage } from './workers.ts';
export { superviseWithReload } from './reload.ts';
export { watchTree, isIgnoredName, type TreeWatcher } from './watch-tree.ts';
export { loadApp, configFile, listenOn, type LoadedApp } from './load-app.ts';
export { parseCli, type CliCommand } from './cli-args.ts';
export { HELP, hickoryVersion } from './help.ts';
export { CLI_ERRORS, cliError, oneLine, type CliErrorCode } from './errors.ts';
export { createProject, hickoryDependencies } from './create-project.ts';
export { PROJECT_TEMPLATES, type ProjectTemplate } from './project-files.ts';
export { projectFiles } from './project-files.ts';

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliError } from './errors.ts';
import { PROJECT_TEMPLATES, projectFiles, type ProjectTemplate } from './project-files.ts';

/**
 * The dependency specs of a new project: `@hickory/app` (what its code imports) and `@hickory/cli`
 * (the `hickory` command its scripts run), at the published version, or, when the command runs
 * from a source checkout (not from under node_modules), `file:` links to that checkout's packages. `HICKORY_DEPENDENCY_DIR` names another checkout or folder of
 * unpacked packages (`<dir>/app`, `<dir>/cli`).
 *
 * @example
 * ```ts
 * hickoryDependencies(); // { '@hickory/app': 'file:/work/hickory/app', '@hickory/cli': 'file:/work/hickory/cli' } in a checkout
 * ```
 */
function hickoryDependencies(): Record<'@hickory/app' | '@hickory/cli', string> {
  const cliDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  // A checkout, not an installed package (which ships src/ too, but lives under node_modules).
  const checkout = existsSync(join(cliDir, 'src', 'cli.ts')) && !cliDir.split(sep).includes('node_modules');
  const root = process.env['HICKORY_DEPENDENCY_DIR'] ?? (checkout ? resolve(cliDir, '..') : undefined);
  if (root === undefined) return { '@hickory/app': '^0.1.0', '@hickory/cli': '^0.1.0' };
  return { '@hickory/app': `file:${join(root, 'app')}`, '@hickory/cli': `file:${join(root, 'cli')}` };
}

/**
 * `hickory create <name>`: writes a new project (package.json, config, root controller, a template,
 * tests) into a new folder and returns its absolute path; `explicit` (`--explicit`) makes a project whose
 * handlers receive `(request, response, ...)` (`use_context_locals: false`). Refuses to touch a folder that exists
 * (`HICKORY_ERR_CLI_EXISTS`) and an unknown template (`HICKORY_ERR_CLI_TEMPLATE`).
 *
 * @example
 * ```ts
 * await createProject('my-app', 'rest-api');
 * await createProject('my-api', 'rest-api', { explicit: true });
 * ```
 */
export async function createProject(target: string, template: string, { explicit = false }: { explicit?: boolean } = {}): Promise<string> {
  if (!(PROJECT_TEMPLATES as readonly string[]).includes(template)) {
    throw cliError('HICKORY_ERR_CLI_TEMPLATE', template, PROJECT_TEMPLATES.join(' or '));
  }
  const dir = resolve(target);
  if (existsSync(dir)) throw cliError('HICKORY_ERR_CLI_EXISTS', dir);
  const name = basename(dir).toLowerCase().replace(/[^a-z0-9-_.]/g, '-');
  const files = projectFiles(name, template as ProjectTemplate, hickoryDependencies(), { explicit });
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return dir;
}

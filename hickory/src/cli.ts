// The `hickory` command: serve, create, --version, --help.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { superviseWithReload } from './reload.ts';
import { serve } from './serve.ts';
import { createProject, PROJECT_TEMPLATES } from './create-project.ts';

const HELP = `Usage: hickory <command> [options]

Commands:
  serve <config>    Serve the app of a config file (.js, .mjs, .ts or .json)
      --port <n>        Port (overrides server.port)
      --host <addr>     Address (overrides server.host)
      --reload          Restart when a file of the app changes
      --workers <n>     Run n processes (default: one per core with NODE_ENV=production, else 1)
  create <name>     Make a new project in the folder <name>
      --template <t>    ${PROJECT_TEMPLATES.join(' or ')} (default base)

Options:
  --version         Print the version
  --help            Print this help
`;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function fail(message: string): never {
  console.error(`hickory: ${message}`);
  process.exit(1);
}

function positiveInt(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) fail(`--${name} takes a whole number of at least ${min}, got "${value}"`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        reload: { type: 'boolean' },
        workers: { type: 'string' },
        template: { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(`${(error as Error).message} (see hickory --help)`);
  }
  const { values, positionals } = parsed;
  if (values.version) return void console.log(version());
  const [command, target, ...extra] = positionals;
  if (values.help || !command) return void console.log(HELP);
  if (extra.length) fail(`unexpected argument "${extra[0]}" (see hickory --help)`);
  if (command === 'serve') {
    if (!target) fail('serve needs a config file: hickory serve <config>');
    const port = positiveInt(values.port, 'port', 0);
    const workers = positiveInt(values.workers, 'workers', 1);
    if (values.reload) {
      const childArgs = argv.filter((a) => a !== '--reload');
      return superviseWithReload(target, childArgs);
    }
    await serve({ config: target, port, host: values.host, workers });
    return;
  }
  if (command === 'create') {
    if (!target) fail('create needs a folder name: hickory create <name>');
    const dir = await createProject(target, values.template ?? 'base');
    console.log(`hickory: created ${dir}\n  cd ${target} && npm install && npm test && npm start`);
    return;
  }
  fail(`unknown command "${command}" (see hickory --help)`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  fail(error.message.split('\n')[0]!);
});

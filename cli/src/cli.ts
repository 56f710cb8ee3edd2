// The `hickory` command: serve, routes, shell, test, create, --version, --help. Every failure is one line on stderr
// and exit code 1.
import { parseCli, serveArgs } from './cli-args.ts';
import { createProject } from './create-project.ts';
import { oneLine } from './errors.ts';
import { HELP, hickoryVersion } from './help.ts';
import { superviseWithReload } from './reload.ts';
import { printRoutes } from './routes.ts';
import { serve } from './serve.ts';
import { startShell } from './shell.ts';
import { runTests } from './test-command.ts';

async function main(argv: string[]): Promise<void> {
  const cli = parseCli(argv);
  switch (cli.command) {
    case 'help':
      return void process.stdout.write(HELP);
    case 'version':
      return void console.log(hickoryVersion());
    case 'create': {
      const dir = await createProject(cli.name, cli.template, { explicit: cli.explicit });
      console.log(`hickory: created ${dir}\n  cd ${cli.name} && npm install && npm test && npm start`);
      return;
    }
    case 'routes':
      return printRoutes(cli.config, cli.format, { title: cli.title, version: cli.version });
    case 'shell':
      return void (await startShell(cli.config));
    case 'test':
      process.exitCode = await runTests(cli.paths, cli.nodeOptions);
      return;
    case 'serve':
      if (cli.reload) return superviseWithReload(cli.config, serveArgs(cli), { watch: cli.watch, ignore: cli.ignore });
      return serve(cli);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`hickory: ${oneLine(error instanceof Error ? error.message : String(error))}`);
  process.exit(1);
});

// `hickory create`: each template, with and without --explicit, makes a project that passes its
// own tests and type-checks, offline: the project's node_modules is a link to the repository's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { get, REPO, run, serveFixture } from './fixtures/cli/harness.ts';

const exec = promisify(execFile);
let dir = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-cli-create-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function npm(cwd: string, script: string): Promise<string> {
  // Without NODE_TEST_CONTEXT, the project's `node --test` reports as it would in a terminal.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const { stdout } = await exec('npm', ['run', script], { cwd, timeout: 150_000, env: { ...env, NODE_OPTIONS: '' } });
  return stdout;
}

// What --explicit changes: the config turns context locals off, and every handler takes the
// request and the response first (the project's own tests fail if they do not).
async function assertExplicit(project: string, template: string): Promise<void> {
  assert.match(await readFile(join(project, 'config.ts'), 'utf8'), /\n {4}use_context_locals: false,\n/);
  const root = await readFile(join(project, 'controllers', 'root.ts'), 'utf8');
  assert.match(root, /^import \{ expose, type Request, type Response \} from '@hickory\/app';\n/);
  assert.match(root, /\n {2}index\(_request: Request, _response: Response\) \{\n/);
  if (template === 'base') assert.match(root, /\n {2}hello\(_request: Request, _response: Response, name = 'world'\) \{\n/);
  else {
    const books = await readFile(join(project, 'controllers', 'books.ts'), 'utf8');
    assert.match(books, /\n {2}post\(_request: Request, response: Response, name: string\) \{\n/);
    assert.match(books, /\n {2}put\(_request: Request, _response: Response, id: string, name: string\) \{\n/);
    assert.doesNotMatch(books, /import \{[^}]*\bresponse\b[^}]*\} from/);
  }
}

const SECOND_TEST = `import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createApp, loadConfig } from '@hickory/app';

test('an unknown page is a 404 (test/pages/missing.test.ts)', async () => {
  const { app: config } = await loadConfig(fileURLToPath(new URL('../../config.ts', import.meta.url)));
  const app = createApp({ ...config, logger: false });
  assert.equal((await app.inject('/no-such-page')).statusCode, 404);
  await app.close();
});
`;

for (const [template, explicit] of [['base', false], ['rest-api', false], ['base', true], ['rest-api', true]] as const) {
  const flags = explicit ? ['--template', template, '--explicit'] : ['--template', template];
  test(`hickory create ${flags.join(' ')} makes a project that passes its own tests and type-checks`, async () => {
    const name = `my-${template}${explicit ? '-explicit' : ''}`;
    const { code, stdout, stderr } = await run(['create', name, ...flags], dir);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `hickory: created ${join(dir, name)}\n  cd ${name} && npm install && npm test && npm start\n`);
    const project = join(dir, name);
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    assert.equal(pkg.name, name);
    assert.equal(pkg.dependencies['@hickory/app'], `file:${join(REPO, 'app')}`);
    assert.equal(pkg.dependencies['@hickory/cli'], `file:${join(REPO, 'cli')}`);
    assert.equal(pkg.dependencies.hickory, undefined, 'the unscoped name belongs to another project');
    assert.deepEqual((await readdir(project)).sort(), ['.gitignore', 'config.ts', 'controllers', 'package.json', 'templates', 'test', 'tsconfig.json']);
    if (explicit) await assertExplicit(project, template);
    else assert.doesNotMatch(await readFile(join(project, 'config.ts'), 'utf8'), /use_context_locals/);

    await symlink(join(REPO, 'node_modules'), join(project, 'node_modules'), 'dir');
    assert.equal(pkg.scripts.test, 'hickory test');
    // A second test file, in a subfolder: npm test runs it as well as the generated one.
    await mkdir(join(project, 'test', 'pages'));
    await writeFile(join(project, 'test', 'pages', 'missing.test.ts'), SECOND_TEST);
    // npm run exits non-zero (and exec rejects) when a test fails; the test's name shows it ran,
    // whatever reporter this Node line picks for a pipe.
    const [tested] = await Promise.all([npm(project, 'test'), npm(project, 'typecheck')]);
    assert.match(tested, template === 'base' ? /the home page and \/hello answer/ : /books can be listed, created, read, updated and deleted/);
    // The body of a create or an update is checked (an array, object or number as `name` was a 500).
    if (template === 'rest-api') assert.match(tested, /a book whose name is not a non-empty string is refused with 400 naming the problem/);
    assert.match(tested, /an unknown page is a 404 \(test\/pages\/missing\.test\.ts\)/);
    assert.doesNotMatch(tested, /\bnot ok\b|✖/);
    if (explicit) {
      // hickory routes lists the parameters a request fills, not the request and the response.
      const routes = await run(['routes', 'config.ts', '--json'], project);
      assert.equal(routes.code, 0, routes.stderr);
      const params = Object.fromEntries((JSON.parse(routes.stdout) as Array<{ path: string; params: string[] }>).map((r) => [r.path, r.params]));
      assert.deepEqual(params['/'], []);
      if (template === 'base') assert.deepEqual(params['/hello'], ['name']);
    }

    const { cli, url } = await serveFixture(['config.ts', '--port', '0'], project);
    try {
      const home = await get(`${url}/`);
      assert.equal(home.status, 200);
      assert.match(home.body, /<h1>(Welcome to Hickory|Books API)<\/h1>/);
    } finally {
      cli.stop();
    }
  });
}

test('hickory create refuses an existing folder with one line and exit code 1, leaving it untouched', async () => {
  const existing = join(dir, 'taken');
  await mkdir(existing);
  await writeFile(join(existing, 'keep.txt'), 'mine');
  const { code, stdout, stderr } = await run(['create', 'taken'], dir);
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.equal(stderr, `hickory: ${existing} already exists: choose a new folder name\n`);
  assert.deepEqual(await readdir(existing), ['keep.txt']);
});

test('hickory create refuses an unknown template with one line and exit code 1', async () => {
  const { code, stderr } = await run(['create', 'other', '--template', 'graphql'], dir);
  assert.equal(code, 1);
  assert.equal(stderr, 'hickory: Unknown template "graphql": choose base or rest-api\n');
  await assert.rejects(readdir(join(dir, 'other')));
});

test('create-hickory (npm create hickory@latest) makes the same project through hickory create', async () => {
  const createHickory = join(REPO, 'create-hickory', 'bin', 'create-hickory.mjs');
  const { stdout } = await exec(process.execPath, [createHickory, 'via-create', '--template', 'rest-api'], { cwd: dir, timeout: 20_000 });
  assert.equal(stdout, `hickory: created ${join(dir, 'via-create')}\n  cd via-create && npm install && npm test && npm start\n`);
  const pkg = JSON.parse(await readFile(join(dir, 'via-create', 'package.json'), 'utf8'));
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), ['@hickory/app', '@hickory/cli', 'ejs', 'tsx', 'zod']);
  const explicit = await exec(process.execPath, [createHickory, 'via-create-explicit', '--template', 'rest-api', '--explicit'], { cwd: dir, timeout: 20_000 });
  assert.equal(explicit.stdout, `hickory: created ${join(dir, 'via-create-explicit')}\n  cd via-create-explicit && npm install && npm test && npm start\n`);
  await assertExplicit(join(dir, 'via-create-explicit'), 'rest-api');
  await assert.rejects(exec(process.execPath, [createHickory], { cwd: dir, timeout: 20_000 }), (error: { code: number; stderr: string }) => {
    assert.equal(error.code, 1);
    assert.match(error.stderr, /^hickory: /);
    return true;
  });
});

test('hickory test fails with exit code 1 when a test fails, and when there is no test file at all', async () => {
  const project = join(dir, 'tests-only');
  await mkdir(join(project, 'test'), { recursive: true });
  const none = await run(['test'], project);
  assert.equal(none.code, 1);
  assert.equal(none.stderr, 'hickory: hickory test: no *.test.ts (or .mts, .js, .mjs) file under test (see hickory --help)\n');
  await writeFile(join(project, 'test', 'fails.test.ts'), "import { test } from 'node:test';\ntest('this one fails', () => { throw new Error('on purpose'); });\n");
  await writeFile(join(project, 'test', 'passes.test.ts'), "import { test } from 'node:test';\ntest('this one passes', (): void => {});\n");
  const failed = await run(['test'], project);
  assert.equal(failed.code, 1);
  assert.match(failed.stdout, /this one fails/);
  assert.match(failed.stdout, /this one passes/);
  const chosen = await run(['test', '--test-name-pattern=passes'], project);
  assert.equal(chosen.code, 0, chosen.stdout);
});

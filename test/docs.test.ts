import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';

// Every ```ts block in docs/*.md is a program: it is written to a file inside the repository (so
// that `@hickory/*` and `hickory` resolve as they do for users), run under tsx, and must exit 0.
// Samples assert their own outcomes, so a sample that drifts from the code fails here.
// A block marked ```ts no-run is shown but not run (keep those rare). A block marked ```ts postgres
// runs with DATABASE_URL naming a throwaway PostgreSQL cluster (skipped where PostgreSQL is not
// installed, outside CI; see test/postgres-cluster.ts).

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = join(REPO, 'docs');
// A dot folder: `tsc -b` (include "**/*.ts") skips it, and nothing here is a *.test.ts file.
const TMP_PARENT = join(REPO, 'test', 'docs', '.tmp');
// The samples' os.tmpdir(): what they leave there is removed after the run, except tsx's
// compile cache (tsx-*), which keeps later runs fast.
const SAMPLE_TMP = join(TMP_PARENT, 'tmp');
const SAMPLE_TIMEOUT_MS = 20_000;

/** The guides issue 7 asks for; each must exist. */
const GUIDES = [
  'README.md',
  'routing.md',
  'validation.md',
  'rest.md',
  'templates.md',
  'uploads-and-downloads.md',
  'configuration.md',
  'plugins.md',
  'hooks.md',
  'testing.md',
  'migrating-from-pecan.md',
  'deployment.md',
  'logging.md',
];

interface Sample {
  /** `routing.md:42` (the line of the opening fence). */
  readonly where: string;
  readonly doc: string;
  readonly line: number;
  readonly code: string;
  /** Marked `postgres`: runs with DATABASE_URL set. */
  readonly postgres: boolean;
}

/** The fenced blocks of a Markdown text whose info string starts with `ts`/`typescript` and is not `no-run`. */
export function extractSamples(doc: string, text: string): Sample[] {
  const samples: Sample[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open as unknown as [string, string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trimStart().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line);
    }
    const runnable = (lang === 'ts' || lang === 'typescript') && !/\bno-run\b/.test(rest);
    if (runnable) samples.push({ where: `${doc}:${i + 1}`, doc, line: i + 1, code: `${body.join('\n')}\n`, postgres: /\bpostgres\b/.test(rest) });
    i = j;
  }
  return samples;
}

function docFiles(): string[] {
  return existsSync(DOCS) ? readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort() : [];
}

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
  readonly timedOut: boolean;
}

// What a PostgreSQL sample gives where it is skipped (its test is marked skipped, never judged).
const SKIPPED: Outcome = { code: 0, signal: null, output: '', timedOut: false };

function runFile(file: string, databaseUrl?: string): Promise<Outcome> {
  // A sample that uses node:test runs as its own test program, not as a child of this run.
  const { NODE_TEST_CONTEXT: _context, ...inherited } = process.env;
  const env = databaseUrl === undefined ? inherited : { ...inherited, DATABASE_URL: databaseUrl };
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', file], {
      cwd: REPO,
      env: { ...env, NODE_ENV: 'test', TMPDIR: SAMPLE_TMP },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, SAMPLE_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, output, timedOut });
    });
  });
}

/** Runs `jobs` with at most `limit` at a time; each promise settles when its own job does. */
function pool<T>(jobs: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T>[] {
  const results: Promise<T>[] = [];
  let running = 0;
  const waiting: Array<() => void> = [];
  for (const job of jobs) {
    results.push(
      (async () => {
        if (running >= limit) await new Promise<void>((go) => waiting.push(go));
        running++;
        try {
          return await job();
        } finally {
          running--;
          waiting.shift()?.();
        }
      })(),
    );
  }
  return results;
}

const samples = docFiles().flatMap((doc) => extractSamples(doc, readFileSync(join(DOCS, doc), 'utf8')));
let runDir: string | undefined;
let cluster: Cluster | undefined;

after(async () => {
  await cluster?.stop();
  if (runDir) await rm(runDir, { recursive: true, force: true });
  const left = existsSync(SAMPLE_TMP) ? await readdir(SAMPLE_TMP) : [];
  for (const name of left) if (!name.startsWith('tsx-')) await rm(join(SAMPLE_TMP, name), { recursive: true, force: true });
});

test('every guide of the docs exists', () => {
  const missing = GUIDES.filter((guide) => !existsSync(join(DOCS, guide)));
  assert.deepEqual(missing, []);
});

test('relative links between the docs point at files that exist', () => {
  const broken: string[] = [];
  for (const doc of docFiles()) {
    const text = readFileSync(join(DOCS, doc), 'utf8');
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!.split('#')[0]!;
      if (!target || /^[a-z]+:/i.test(target)) continue;
      if (!existsSync(resolve(DOCS, target))) broken.push(`${doc} → ${match[1]}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('no guide has users import the unscoped "hickory" package (another project\'s name)', () => {
  const found: string[] = [];
  for (const doc of [...docFiles().map((f) => join(DOCS, f)), join(REPO, 'README.md')]) {
    const text = readFileSync(doc, 'utf8');
    for (const match of text.matchAll(/from\s+['"]hickory['"]|(?:import|require)\(\s*['"]hickory['"]|`['"]hickory['"]`/g)) {
      found.push(`${relative(REPO, doc)}: ${match[0]}`);
    }
  }
  assert.deepEqual(found, []);
});

test('the sample extractor reads ts blocks, skips no-run and other languages', () => {
  const text = ['```ts', 'a();', '```', '```ts no-run', 'b();', '```', '```sh', 'c', '```', '  ```ts', '  d();', '  ```'].join('\n');
  assert.deepEqual(
    extractSamples('x.md', text).map((s) => [s.where, s.code]),
    [
      ['x.md:1', 'a();\n'],
      ['x.md:10', 'd();\n'],
    ],
  );
  assert.deepEqual(
    extractSamples('y.md', ['```ts postgres', 'e();', '```'].join('\n')).map((s) => [s.where, s.postgres]),
    [['y.md:1', true]],
  );
});

test('every ts sample in docs/ runs and exits 0', async (t) => {
  assert.ok(samples.length > 0, 'docs/ has no ts samples');
  await mkdir(TMP_PARENT, { recursive: true });
  runDir = await mkdtemp(join(TMP_PARENT, 'run-'));
  const dir = runDir;
  await mkdir(SAMPLE_TMP, { recursive: true });
  const files = await Promise.all(
    samples.map(async (sample) => {
      const file = join(dir, `${sample.doc.replace(/\.md$/, '')}-L${sample.line}.ts`);
      await writeFile(file, sample.code);
      return file;
    }),
  );
  const noPostgres = postgresSkipReason();
  if (noPostgres === undefined && samples.some((sample) => sample.postgres)) cluster = await startCluster('docs');
  const limit = Math.max(2, Math.min(4, availableParallelism()));
  const outcomes = pool(
    files.map((file, i) => () => (samples[i]!.postgres && cluster === undefined ? Promise.resolve(SKIPPED) : runFile(file, samples[i]!.postgres ? cluster?.url : undefined))),
    limit,
  );
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i]!;
    await t.test(sample.where, { skip: sample.postgres ? noPostgres : undefined }, async () => {
      const outcome = await outcomes[i]!;
      const why = outcome.timedOut ? `timed out after ${SAMPLE_TIMEOUT_MS} ms` : `exit code ${outcome.code}${outcome.signal ? `, signal ${outcome.signal}` : ''}`;
      assert.equal(outcome.code, 0, `${sample.where} (${relative(REPO, files[i]!)}): ${why}\n${outcome.output}`);
    });
  }
});

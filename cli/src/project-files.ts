import { baseFiles } from './project-base.ts';
import { restApiFiles } from './project-rest-api.ts';
import { handlerStyle } from './project-style.ts';

/**
 * The project templates `hickory create --template` offers.
 *
 * @example
 * ```ts
 * PROJECT_TEMPLATES.includes('rest-api'); // true
 * ```
 */
export const PROJECT_TEMPLATES = ['base', 'rest-api'] as const;

/** A project template name (one of {@link PROJECT_TEMPLATES}). */
export type ProjectTemplate = (typeof PROJECT_TEMPLATES)[number];

/**
 * The files of a new project, by relative path: package.json, tsconfig.json, config.ts, a root
 * controller, a template and a test, for the `base` or `rest-api` template; `explicit` writes the
 * handlers as `(request, response, ...)` and sets `use_context_locals: false`. `dependencies` are the
 * specs of `@hickory/app` and `@hickory/cli`; `file:` links to a checkout also make the project use
 * Hickory's TypeScript sources (the `source` condition), so that it runs and type-checks without a build.
 *
 * @example
 * ```ts
 * Object.keys(projectFiles('shop', 'base', { '@hickory/app': '^0.1.0', '@hickory/cli': '^0.1.0' })); // ['package.json', …]
 * ```
 */
export function projectFiles(
  name: string,
  template: ProjectTemplate,
  dependencies: Record<'@hickory/app' | '@hickory/cli', string>,
  { explicit = false }: { explicit?: boolean } = {},
): Record<string, string> {
  const linked = dependencies['@hickory/app'].startsWith('file:');
  const common: Record<string, string> = {
    'package.json': json({
      name,
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: {
        start: 'hickory serve config.ts',
        dev: 'hickory serve config.ts --reload',
        // Every test/**/*.test.ts, on every Node line (node --test expands no glob on Node 20).
        test: 'hickory test',
        typecheck: 'tsc',
      },
      // ejs: the templates' engine (an optional peer of @hickory/app: an app installs the engines it uses).
      // zod: the rest-api template's body schema (any Standard Schema library would do).
      dependencies: { ...dependencies, ejs: '^7.0.2', tsx: '^4.23.0', ...(template === 'rest-api' ? { zod: '^4.6.7' } : {}) },
      devDependencies: { '@types/node': '^20.19.0', typescript: '^6.0.3' },
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        allowImportingTsExtensions: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        ...(linked ? { customConditions: ['source'] } : {}),
      },
      include: ['**/*.ts'],
      exclude: ['node_modules'],
    }),
    'config.ts': `// Served by \`npm start\` (hickory serve config.ts); \`npm run dev\` restarts on changes.
export default {
  server: { host: '127.0.0.1', port: 8080 },
  app: {
    root: './controllers/root.ts#RootController',
    template_path: '%(confdir)s/templates',${explicit ? EXPLICIT_CONFIG : ''}
  },
};
`,
    '.gitignore': 'node_modules/\n',
  };
  const style = handlerStyle(explicit);
  return { ...common, ...(template === 'rest-api' ? restApiFiles(style) : baseFiles(style)) };
}

// No AsyncLocalStorage per request: handlers take the request and the response as arguments.
const EXPLICIT_CONFIG = `
    // Handlers receive (request, response, ...arguments); no AsyncLocalStorage per request.
    use_context_locals: false,`;

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

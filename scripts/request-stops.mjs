// Counts the stops of a request through dispatch, so that "the walk reads one way" (issue #40) is
// measured the same way every time instead of by hand.
//
// Definition. The count starts at `routeRequest` in plugins/dispatch/src/dispatch.ts. A *stop* is
// a function or method of the project (core/src, plugins/dispatch/src, plugins/rest/src; never
// node_modules, never Node or the TypeScript lib) whose call receives the request:
//   - an argument of the call is the `Request` (any expression whose type is core's `Request`,
//     whatever it is named), or an object that holds it in a property (`walker` with
//     `walker.request`: the walk's state carries the request, so the phases it is handed to count);
//   - or the call is made on the request (`request.header(...)`), with a project method as callee;
//   - `new X(request)` counts as a call of X's constructor.
// Such calls are followed transitively through the stops' bodies (a callback written inline, such
// as `.then((x) => next(x, request))`, belongs to the function that writes it); each distinct
// function is one stop, however often it is reached. A *return to a file already left* is a call
// edge, met in the depth-first walk of stops, into a file that is on the current path already but
// is not the caller's own file (A.ts → B.ts → A.ts counts one; an edge into an already counted
// function counts too when its file is on the path).
//
// What the static count sees beyond plain calls, resolved by the type checker:
//   - a call through a value of a *named* function type (dispatch's `DirectRoute`, read from the
//     `_route` function by `directRouteOf`): followed to every project function declared or
//     written as that type (REST's `routeAtOnce`);
//   - a controller's special method called by the walk through its route table
//     (`table._route.call(...)`, `frame.table._lookup.apply(...)`): followed to the project's
//     methods of that name (RestController's `_route`); an app's own controllers are not in the
//     program, so their `_route`/`_lookup` are not counted.
// What it cannot see (printed under "unseen" so that the count is read with it): a function passed
// as a value and called elsewhere under a type that names no implementation (`Function`, a guard's
// `GuardCheck` declared by the app, a `when()` handler), tapable taps (the kernel's hooks call
// plugins' taps by registration, not by name), and anything reached after `routeRequest` returns
// (the `Lookup` it answers is run by core's pipeline: that is the call stage, not the walk).
//
// Usage: node scripts/request-stops.mjs [--json] [--options '{"dirs":[…],"startFile":…,"startName":…,"requestFile":…}']
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import ts from 'typescript';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Counts the stops; returns `{ stops, files, returns, unseen }` (paths relative to `root`). The
 * options default to this repository; a test points them at a small fixture.
 */
export function countStops({
  root = repo,
  dirs = ['core/src', 'plugins/dispatch/src', 'plugins/rest/src'],
  startFile = 'plugins/dispatch/src/dispatch.ts',
  startName = 'routeRequest',
  requestFile = 'core/src/request.ts',
} = {}) {
  const sourceDirs = dirs.map((dir) => join(root, dir));
  const rootNames = sourceDirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
      .map((name) => join(dir, name)),
  );
  const program = ts.createProgram(rootNames, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ['source'],
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    experimentalDecorators: false,
  });
  const checker = program.getTypeChecker();
  const inProject = (file) => {
    const name = file.fileName;
    return !file.isDeclarationFile && !name.includes('/node_modules/') && sourceDirs.some((dir) => name.startsWith(`${dir}/`));
  };
  const projectFiles = program.getSourceFiles().filter(inProject);

  const requestType = findRequestType(program, checker, join(root, requestFile));
  const isRequest = (type) => {
    if (type.isUnion()) return type.types.some(isRequest);
    return type.getSymbol() !== undefined && type.getSymbol() === requestType;
  };
  const holdsRequest = (type) => {
    if (isRequest(type)) return true;
    if (type.isUnion()) return type.types.some(holdsRequest);
    if (!(type.flags & ts.TypeFlags.Object)) return false;
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration === undefined) continue;
      if (isRequest(checker.getTypeOfSymbolAtLocation(property, declaration))) return true;
    }
    return false;
  };

  // Functions written as a named function type (`const routeAtOnce: DirectRoute = ...`), by type alias.
  const byAlias = new Map();
  // Class methods by name, for the special methods the walk calls through route tables.
  const methodsByName = new Map();
  for (const file of projectFiles) {
    const visit = (node) => {
      if (ts.isVariableDeclaration(node) && node.type !== undefined && node.initializer !== undefined && isFunctionLike(node.initializer)) {
        const alias = checker.getTypeAtLocation(node.type).aliasSymbol;
        if (alias !== undefined) push(byAlias, alias, node.initializer);
      }
      if (ts.isMethodDeclaration(node) && node.body !== undefined && ts.isIdentifier(node.name)) push(methodsByName, node.name.text, node);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  const startSource = program.getSourceFile(join(root, startFile));
  const start = startSource === undefined ? undefined : findFunction(startSource, startName);
  if (start === undefined) throw new Error(`${startName} not found in ${startFile}`);

  const stops = [];
  const seen = new Set();
  const returns = [];
  const unseen = new Map();
  const label = (fn) => `${relative(root, fn.getSourceFile().fileName)}:${nameOf(fn)}`;

  // Callees of `fn` that receive the request, in source order, with how each was found.
  function calleesOf(fn) {
    const out = [];
    const visit = (node) => {
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && receivesRequest(node)) {
        const found = resolve(node);
        if (found.length === 0) {
          const text = node.expression.getText().replace(/\s+/g, ' ');
          const where = `${label(fn)} → ${text}(…)`;
          if (!isOutsideCallee(node)) unseen.set(where, (unseen.get(where) ?? 0) + 1);
        }
        for (const callee of found) out.push(callee);
      }
      ts.forEachChild(node, visit);
    };
    if (fn.body !== undefined) ts.forEachChild(fn.body, visit);
    return out;
  }

  function receivesRequest(call) {
    for (const argument of call.arguments ?? []) {
      if (holdsRequest(checker.getTypeAtLocation(argument))) return true;
    }
    const callee = call.expression;
    if (ts.isPropertyAccessExpression(callee) && isRequest(checker.getTypeAtLocation(callee.expression))) return true;
    return false;
  }

  // A callee outside the project (Node, a library, the lib's Function/Promise): no stop, by
  // definition, and nothing unseen either.
  function isOutsideCallee(call) {
    if (isSpecialCall(call) !== undefined) return false;
    const declaration = checker.getResolvedSignature(call)?.declaration;
    return declaration !== undefined && !inProject(declaration.getSourceFile());
  }

  // `table._route!.call(...)` / `frame.table._lookup!.apply(...)`: the special method's name.
  function isSpecialCall(call) {
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee) || !['call', 'apply'].includes(callee.name.text)) return undefined;
    let target = callee.expression;
    if (ts.isNonNullExpression(target)) target = target.expression;
    if (!ts.isPropertyAccessExpression(target)) return undefined;
    const name = target.name.text;
    return name === '_route' || name === '_lookup' || name === '_default' ? name : undefined;
  }

  function resolve(call) {
    const special = isSpecialCall(call);
    if (special !== undefined) return (methodsByName.get(special) ?? []).map((fn) => ({ fn, how: `special ${special}` }));
    const calleeType = checker.getTypeAtLocation(call.expression);
    const alias = calleeType.aliasSymbol ?? checker.getNonNullableType(calleeType).aliasSymbol;
    if (alias !== undefined && byAlias.has(alias)) return byAlias.get(alias).map((fn) => ({ fn, how: `as ${alias.name}` }));
    const signature = checker.getResolvedSignature(call);
    let declaration = signature?.declaration;
    if (declaration === undefined || !inProject(declaration.getSourceFile())) return [];
    if (ts.isClassDeclaration(declaration)) return [];
    if (declaration.body === undefined) {
      // An overload signature: its implementation is the declaration with a body.
      const symbol = declaration.symbol ?? checker.getSymbolAtLocation(declaration.name);
      declaration = symbol?.declarations?.find((d) => isFunctionLike(d) && d.body !== undefined);
      if (declaration === undefined) return [];
    }
    if (!isFunctionLike(declaration)) return [];
    return [{ fn: declaration, how: 'call' }];
  }

  // Depth-first, each function once; `path` holds the files of the frames above.
  function visitStop(fn, path) {
    seen.add(fn);
    stops.push(label(fn));
    const file = fn.getSourceFile().fileName;
    path.push(file);
    for (const { fn: callee, how } of calleesOf(fn)) {
      const calleeFile = callee.getSourceFile().fileName;
      if (calleeFile !== file && path.includes(calleeFile)) returns.push(`${label(fn)} → ${label(callee)}${how === 'call' ? '' : ` (${how})`}`);
      if (!seen.has(callee)) visitStop(callee, path);
    }
    path.pop();
  }
  visitStop(start, []);

  const files = [...new Set(stops.map((stop) => stop.slice(0, stop.lastIndexOf(':'))))];
  return { stops, files, returns, unseen: [...unseen.keys()] };
}

function findRequestType(program, checker, path) {
  const file = program.getSourceFile(path);
  if (file === undefined) throw new Error(`${path} is not in the program`);
  for (const statement of file.statements) {
    if ((ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) && statement.name?.text === 'Request') {
      return checker.getSymbolAtLocation(statement.name);
    }
  }
  throw new Error(`class Request not found in ${path}`);
}

function findFunction(file, name) {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
  }
  return undefined;
}

function isFunctionLike(node) {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node);
}

function nameOf(fn) {
  if (fn.name !== undefined && ts.isIdentifier(fn.name)) {
    const owner = ts.isClassLike(fn.parent) && fn.parent.name !== undefined ? `${fn.parent.name.text}.` : '';
    return `${owner}${fn.name.text}`;
  }
  if (ts.isConstructorDeclaration(fn) && fn.parent.name !== undefined) return `new ${fn.parent.name.text}`;
  if (ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) return fn.parent.name.text;
  return `(anonymous @${fn.getSourceFile().getLineAndCharacterOfPosition(fn.getStart()).line + 1})`;
}

function push(map, key, value) {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--options');
  const result = countStops(at === -1 ? undefined : JSON.parse(process.argv[at + 1]));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`stops: ${result.stops.length}`);
    for (const stop of result.stops) console.log(`  ${stop}`);
    console.log(`files: ${result.files.length}`);
    console.log(`returns to a file already left: ${result.returns.length}`);
    for (const edge of result.returns) console.log(`  ${edge}`);
    console.log(`unseen (receive the request, callee not named statically): ${result.unseen.length}`);
    for (const call of result.unseen) console.log(`  ${call}`);
  }
}

import { jsonify, type Kernel, type Response } from '@hickory/core';
import { isDevelopment, isThenable } from '@hickory/core/kit';
import { dispatchError } from './errors.ts';
import type { HandlerFacts } from './handler-facts.ts';
import type { Rendering } from './exposure.ts';
import { plainIssues } from './issues.ts';
import { controllerName } from './names.ts';
import { responseSerializer, type ResponseSerializer } from './response-serializer.ts';
import type { StandardSchemaV1 } from '@standard-schema/spec';

// The kernels that check values against their response schema: those readied outside production
// (and how many there are: in production none, and a request asks nothing).
const checking = new WeakSet<Kernel>();
let checkingCount = 0;

/**
 * Decides at `ready()` whether `kernel` checks returned values against their response schema:
 * outside production only (`NODE_ENV` unset, `development` or `test`), as the debug page decides.
 *
 * @example
 * ```ts
 * kernel.hooks.ready.tap('dispatch', () => decideResponseChecks(kernel));
 * ```
 */
export function decideResponseChecks(kernel: Kernel): void {
  const was = checking.has(kernel);
  if (isDevelopment()) checking.add(kernel);
  else checking.delete(kernel);
  checkingCount += Number(checking.has(kernel)) - Number(was);
}

/**
 * Writes `value` as the body through the response serializer of `fn`, when `fn` declared a
 * response schema for `rendering`: outside production, the value (as JSON sends it: Dates as ISO
 * strings, `toJSON` applied) is first checked with the schema, and a mismatch throws a coded error
 * naming the method and the issues (a logged 500). Returns `false` when `fn` has no serializer for
 * this rendering (the caller writes JSON as usual), `true` once written, or a promise when the
 * schema validates asynchronously (or the compiler is still loading). `facts`, when given, keep
 * the serializer once read.
 *
 * @example
 * ```ts
 * if (writeSchemaJson(kernel, rendering, value, response, controller, fn) === false) response.body = jsonify.encode(value);
 * ```
 */
export function writeSchemaJson(
  kernel: Kernel,
  rendering: Rendering,
  value: unknown,
  response: Response,
  controller: object | undefined,
  fn: Function,
  facts?: HandlerFacts,
): boolean | Promise<void> {
  let serializer = facts?.serializer;
  if (serializer === undefined) {
    const read = responseSerializer(fn, controller);
    if (read instanceof Promise) {
      return read.then((loaded) => {
        const written = loaded === undefined || loaded.rendering !== rendering ? false : write(kernel, loaded, value, response, controller, fn);
        if (written === false) response.body = jsonify.encode(value);
        return written === true || written === false ? undefined : written;
      });
    }
    serializer = read ?? null;
    if (facts !== undefined) facts.serializer = serializer;
  }
  if (serializer === null || serializer.rendering !== rendering) return false;
  return write(kernel, serializer, value, response, controller, fn);
}

function write(kernel: Kernel, serializer: ResponseSerializer, value: unknown, response: Response, controller: object | undefined, fn: Function): true | Promise<void> {
  if (checkingCount > 0 && checking.has(kernel)) {
    // The schema describes JSON (it converts to JSON Schema), so it judges the value as JSON carries it.
    const result = serializer.schema['~standard'].validate(JSON.parse(jsonify.encode(value)));
    if (isThenable(result)) {
      return Promise.resolve(result).then((settled) => {
        reject(settled, controller, fn);
        response.body = serializer.serialize(value);
      });
    }
    reject(result, controller, fn);
  }
  response.body = serializer.serialize(value);
  return true;
}

function reject(result: StandardSchemaV1.Result<unknown>, controller: object | undefined, fn: Function): void {
  if (result.issues === undefined) return;
  const issues = plainIssues(result.issues, []).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(the value)'}: ${issue.message}`);
  const where = `${controller === undefined ? '' : controllerName(controller)}.${fn.name || '(anonymous)'}`;
  throw dispatchError('HICKORY_ERR_DISPATCH_RESPONSE_INVALID', where, issues.join('; '));
}

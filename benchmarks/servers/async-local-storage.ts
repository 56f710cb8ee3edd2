// Preloaded (`--import`) into a server by benchmarks/instructions.ts: an AsyncLocalStorage that
// holds a value, as in any server that offers a request-scoped context. Node then runs the
// storage's async hook for every async resource it makes (a dozen ticks per request), which is the
// cost Hickory's `request`/`response` context brings; measured on node:http alone, it shows apart
// from everything else a framework does.
import { AsyncLocalStorage } from 'node:async_hooks';

new AsyncLocalStorage<object>().enterWith({});

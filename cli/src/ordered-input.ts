import { createInterface } from 'node:readline';
import type { REPLServer } from 'node:repl';
import type { Writable } from 'node:stream';

/**
 * Feeds the lines of `source` to a REPL (through `sink`, the REPL's input) one at a time, each
 * once the REPL has finished evaluating the one before — top-level `await`s included — and ends
 * `sink` after the last. Node's REPL reads piped input as fast as it comes, so that
 * `(await inject('/a'))` and the next line would run together and `.exit` could close the app
 * under a request; a terminal user never types ahead of an answer, a pipe does. The REPL's next
 * prompt says it is done with a line (evaluated, a command run, or more input wanted).
 *
 * @example
 * ```ts
 * const sink = new PassThrough();
 * const repl = start({ input: sink, output: process.stdout, terminal: false });
 * feedInOrder(process.stdin, repl, sink);
 * ```
 */
export function feedInOrder(source: NodeJS.ReadableStream, repl: REPLServer, sink: Writable): void {
  const queue: string[] = [];
  let busy = false;
  let ended = false;

  // The REPL shows its prompt again once it is done with a line: evaluated (the awaited promise
  // settled), a command run, or an incomplete input waiting for the next line (`...`).
  const display = repl.displayPrompt.bind(repl);
  repl.displayPrompt = (preserveCursor?: boolean) => {
    display(preserveCursor);
    if (!busy) return;
    busy = false;
    setImmediate(pump);
  };

  function pump(): void {
    if (busy) return;
    const line = queue.shift();
    if (line === undefined) {
      if (ended) sink.end();
      return;
    }
    busy = true;
    sink.write(`${line}\n`);
  }

  const lines = createInterface({ input: source, crlfDelay: Infinity });
  lines.on('line', (line) => {
    queue.push(line);
    pump();
  });
  lines.on('close', () => {
    ended = true;
    pump();
  });
}

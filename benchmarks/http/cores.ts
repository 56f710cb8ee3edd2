// Which cores the server and the load generator are pinned to (`taskset -c`): on this machine's
// two cores the server gets core 0 and wrk core 1; a larger machine can give wrk more.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * The cores of a `taskset -c` list (`1`, `1-8`, `1,3,5-7`), in order, each once. Throws on
 * anything else.
 *
 * @example
 * ```ts
 * parseCoreList('1,3-5'); // [1, 3, 4, 5]
 * ```
 */
export function parseCoreList(text: string): number[] {
  const cores: number[] = [];
  for (const part of text.split(',').map((s) => s.trim())) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) throw new Error(`"${text}" is not a list of cores such as 1, 1-8 or 1,3,5-7`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) throw new Error(`"${part}" in "${text}": a range goes from the lower core to the higher`);
    for (let core = from; core <= to; core++) if (!cores.includes(core)) cores.push(core);
  }
  return cores;
}

/**
 * Checks that the server's core and the load generator's cores exist here, do not overlap, and
 * that `taskset` can pin to them; throws with what to change otherwise.
 *
 * @example
 * ```ts
 * checkPinning(0, [1]);
 * ```
 */
export function checkPinning(serverCore: number, clientCores: readonly number[], cores = availableParallelism()): void {
  if (cores < 2) throw new Error(`this machine offers ${cores} core: the server and the load generator need one each (a quiet measurement never shares them)`);
  for (const core of [serverCore, ...clientCores]) {
    if (core >= cores) throw new Error(`core ${core} is not among this machine's ${cores} (0-${cores - 1}): pass --server-core and --client-cores`);
  }
  if (clientCores.includes(serverCore)) throw new Error(`core ${serverCore} is both the server's and the load generator's: they must not share a core`);
  const probe = spawnSync('taskset', ['-c', [serverCore, ...clientCores].join(','), 'true'], { encoding: 'utf8' });
  if (probe.error) throw new Error(`taskset is needed to pin the processes to cores: apt-get install util-linux (${probe.error.message})`);
  if (probe.status !== 0) throw new Error(`taskset cannot pin to cores ${serverCore},${clientCores.join(',')} here: ${probe.stderr.trim()}`);
}

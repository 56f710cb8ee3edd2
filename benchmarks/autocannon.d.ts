// autocannon ships no types: the part of its API and result the benchmarks use.
declare module 'autocannon' {
  interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { average: number; total: number };
    latency: { p50: number; p99: number; average: number };
  }
  export default function autocannon(options: Record<string, unknown>): Promise<AutocannonResult>;
}

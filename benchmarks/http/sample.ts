// One measured run of one server on one route, as the HTTP benchmarks keep it.

/** What one run measured. */
export interface LoadSample {
  /** Completed requests per second over the whole run. */
  rps: number;
  /** Completed requests in the run. */
  requests: number;
  /** The server's CPU time (user + system) per completed request, in µs, when it could be read. */
  cpuPerRequest?: number;
  /** Latency in milliseconds. */
  p50: number;
  p99: number;
  /** Errors, timeouts and non-2xx answers together. */
  failures: number;
  /** The machine's 1-minute load average when the run ended (other work shows here). */
  loadAverage: number;
  /**
   * With the server pinned to a core (`npm run bench`): the share of that core's time spent on
   * other work than the server (other processes, other tenants of the host, hypervisor steal),
   * and the share it sat idle (the load generator did not keep the server busy). Both 0…1.
   */
  serverCore?: { other: number; idle: number };
}

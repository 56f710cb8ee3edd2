import { request as httpRequest } from 'node:http';
import type { Kernel } from '@hickory/core';

/** What a REST test reads from an answer, the same through inject() and through a socket. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request of a test: method, url, optional form body and headers. */
interface Call {
  method: string;
  url: string;
  form?: string;
  headers?: Record<string, string>;
}

/** Sends a request to the app, either in-process or over a socket. */
export type Send = (call: Call) => Promise<Answer>;

function headersOf(call: Call): Record<string, string> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  return headers;
}

/**
 * Runs `body` twice: once with a sender using `app.inject()` and once with one using a real
 * socket on 127.0.0.1 (a fresh app each time, closed at the end).
 *
 * @example
 * ```ts
 * await bothWays(() => createKernel({ root }).use(restPlugin), async (send) => { ... });
 * ```
 */
export async function bothWays(make: () => Kernel, body: (send: Send, how: string) => Promise<void>): Promise<void> {
  const injected = make();
  try {
    await body(async (call) => {
      const res = await injected.inject({ method: call.method as 'GET', url: call.url, headers: headersOf(call), payload: call.form ?? '' });
      return { status: res.statusCode, headers: res.headers as Answer['headers'], body: res.body };
    }, 'inject');
  } finally {
    await injected.close();
  }
  const served = make();
  try {
    const { url } = await served.listen({ port: 0, host: '127.0.0.1' });
    const base = new URL(url);
    await body((call) => overSocket(base, call), 'socket');
  } finally {
    await served.close();
  }
}

function overSocket(base: URL, call: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = headersOf(call);
    if (call.form !== undefined) headers['content-length'] = String(Buffer.byteLength(call.form));
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(base.port), method: call.method, path: call.url, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(call.form);
  });
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirect, response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { assertNothingUncaught, listening, rawExchange, runTable, type Answer, type Case } from './harness.ts';

// Redirect targets built from input, and header values: a target with a scheme leaves the site and
// is refused (500, the application's mistake) unless the call says `external: true` or the origin is
// listed in `redirect_origins`; non-ASCII is percent-encoded in a Location and refused in any other
// header value, with one answer for every bad character; the 500 is always well formed.

const GENERIC_500 = /^HTTP\/1\.1 500 Internal Server Error\r\n/;

const refused = (answer: Answer, how: string) => {
  assert.equal(answer.status, 500, how);
  assert.equal(answer.headers['location'], undefined, `${how}: a Location was sent`);
  if (how === 'socket') assert.match(answer.rawHead, GENERIC_500);
  assert.match(answer.body, /<title>500 Internal Server Error<\/title>/, `${how}: not the default error body`);
};

const leaving = (label: string, to: string): Case => ({
  name: `a redirect to ${label} is refused`,
  target: `/go?to=${encodeURIComponent(to)}`,
  status: [500],
  runs: ['root.go'],
  check: refused,
});

const located = (label: string, to: string, location: string): Case => ({
  name: `a redirect to ${label}`,
  target: `/go?to=${encodeURIComponent(to)}`,
  status: [302],
  runs: ['root.go'],
  check: (answer) => assert.equal(answer.headers['location'], location),
});

const headerValue = (label: string, value: string): Case => ({
  name: `a header value with ${label} is refused`,
  target: `/header?value=${encodeURIComponent(value)}`,
  status: [500],
  runs: ['root.header'],
  check: (answer, how) => {
    refused(answer, how);
    assert.equal(answer.headers['x-echo'], undefined);
  },
});

const cases: Case[] = [
  leaving('https://evil.example', 'https://evil.example'),
  leaving('HTTPS://EVIL.EXAMPLE', 'HTTPS://EVIL.EXAMPLE/x'),
  leaving('http:\\\\evil.example', 'http:\\\\evil.example'),
  leaving('http:/\\evil.example', 'http:/\\evil.example'),
  leaving('https:evil.example', 'https:evil.example'),
  leaving('javascript:alert(1)', 'javascript:alert(1)'),
  leaving('JaVaScRiPt:alert(1)', 'JaVaScRiPt:alert(1)'),
  leaving('data:text/html,<script>', 'data:text/html,<script>alert(1)</script>'),
  leaving('vbscript:x', 'vbscript:x'),
  leaving('a leading space and https://', '  https://evil.example'),
  leaving('a leading tab and https://', '\thttps://evil.example'),
  leaving('a leading NUL and https://', '\u0000https://evil.example'),
  leaving('a leading form feed and javascript:', '\u000cjavascript:alert(1)'),
  leaving('ftp://evil.example', 'ftp://evil.example/'),
  located('a path', '/child/', '/child/'),
  located('a relative path', 'child/', 'child/'),
  located('a query', '?page=2', '?page=2'),
  located('a path with a colon', '/a:b', '/a:b'),
  located('/€ (percent-encoded)', '/€', '/%E2%82%AC'),
  located('/café (percent-encoded)', '/café?q=thé', '/caf%C3%A9?q=th%C3%A9'),
  located('a path already encoded', '/caf%C3%A9', '/caf%C3%A9'),
  headerValue('CR/LF', 'a\r\nX-Injected: 1'),
  headerValue('a bare LF', 'a\nX-Injected: 1'),
  headerValue('NUL', 'a\u0000b'),
  headerValue('DEL', 'a\u007fb'),
  headerValue('U+2028', 'a\u2028b'),
  headerValue('é', 'café'),
  headerValue('€', '€'),
  { name: 'a header value of printable ASCII and a tab is kept', target: `/header?value=${encodeURIComponent('a b\t~!')}`, status: [200], runs: ['root.header'], check: (a) => assert.equal(a.headers['x-echo'], 'a b\t~!') },
];

test('redirect targets and header values built from input', (t) => runTable(t, cases));

class Root {
  @expose() index(): string {
    return 'ok';
  }
  @expose() out(to: string): never {
    redirect(to, { external: true });
  }
  @expose() listed(to: string): never {
    redirect(to);
  }
  @expose() login(): never {
    response.headers['X-Before'] = '1';
    redirect('https://accounts.example.com/login?next=%2F', { code: 303 });
  }
}

test('external: true and redirect_origins let a redirect leave the site', async () => {
  const app = createApp({ root: new Root(), redirect_origins: ['https://accounts.example.com'], logger: false });
  const port = await listening(app);
  try {
    let res = await app.inject(`/out?to=${encodeURIComponent('https://elsewhere.example/x?y=1')}`);
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, 'https://elsewhere.example/x?y=1');
    // Written as a browser would read it.
    res = await app.inject(`/out?to=${encodeURIComponent('HTTPS:\\\\Elsewhere.Example/é')}`);
    assert.equal(res.headers.location, 'https://elsewhere.example/%C3%A9');
    // external: true never allows a scheme other than http and https.
    res = await app.inject(`/out?to=${encodeURIComponent('javascript:alert(1)')}`);
    assert.equal(res.statusCode, 500);
    assert.equal(res.headers.location, undefined);

    res = await app.inject('/login');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, 'https://accounts.example.com/login?next=%2F');
    res = await app.inject(`/listed?to=${encodeURIComponent('https://accounts.example.com:8443/x')}`);
    assert.equal(res.statusCode, 500, 'another port is another origin');
    res = await app.inject(`/listed?to=${encodeURIComponent('http://accounts.example.com/x')}`);
    assert.equal(res.statusCode, 500, 'another scheme is another origin');
    const answer = await rawExchange(port, `GET /listed?to=${encodeURIComponent('https://evil.example')} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    assert.match(answer.rawHead, GENERIC_500);
    assertNothingUncaught('external redirects');
  } finally {
    await app.close();
  }
});

test('the refused redirect is logged with the fix', async () => {
  const lines: string[] = [];
  const logger = { info() {}, warn() {}, error: (message: string, error?: Error) => lines.push(`${message} ${error?.message ?? ''}`) };
  const app = createApp({ root: new Root(), logger });
  try {
    await app.inject(`/listed?to=${encodeURIComponent('https://evil.example/x')}`);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!,
      /Refused a redirect to "https:\/\/evil\.example\/x": it leaves the site\. Pass redirect\(url, \{ external: true \}\) where that is meant, or list the origin https:\/\/evil\.example in the redirect_origins configuration\./,
    );
  } finally {
    await app.close();
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTable, type Answer, type Case } from './harness.ts';

// Responses built from input: redirect targets with CR/LF or `//host` forms, abort() with
// invalid codes, download names and header values with CR/LF, template namespaces that look
// like engine options, reflected markup, and ReDoS-shaped Accept headers.

const noInjectedHeader = (answer: Answer, how: string) => {
  for (const name of ['set-cookie', 'x-injected']) assert.equal(answer.headers[name], undefined, `${how}: header ${name} was injected`);
  assert.doesNotMatch(answer.rawHead, /\r\n(set-cookie|x-injected):/i, `${how}: a header line was injected`);
};

// What a browser does with a Location before resolving it: trims C0 controls and spaces,
// drops tabs and newlines, reads `\` as `/`. The result must not be scheme-relative.
const sameOrigin = (answer: Answer, how: string) => {
  noInjectedHeader(answer, how);
  if (answer.status < 300 || answer.status >= 400) return;
  const location = answer.headers['location'] ?? '';
  const seen = location.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\r\n]/g, '').replace(/\\/g, '/');
  assert.doesNotMatch(seen, /^\/\//, `${how}: Location ${JSON.stringify(location)} leaves the site`);
  assert.match(seen, /^\//, `${how}: Location ${JSON.stringify(location)} is not a path`);
};

const go = (label: string, to: string, status: number[]): Case => ({
  name: `redirect to ${label}`,
  target: `/go?to=${encodeURIComponent(to)}`,
  status,
  runs: ['root.go'],
  check: sameOrigin,
});

const plainPage = (answer: Answer) => {
  assert.equal(answer.body.trim(), '<h1>opts</h1>', 'engine options from the namespace changed the rendering');
};

const ENGINE_OPTIONS_QUERY = [
  'settings=x',
  'client=1',
  'escape=x',
  'delimiter=%3F',
  'openDelimiter=%5B',
  'localsName=x',
  `outputFunctionName=${encodeURIComponent("x;throw new Error('pwned');s")}`,
  'destructuredLocals=x',
  'compileDebug=1',
  'root=%2F',
  'views=%2F',
  'filename=%2Fetc%2Fpasswd',
  'async=0',
  'strict=1',
  '_with=0',
  'cache=1',
  'rmWhitespace=1',
  'autoescape=false',
  'helpers=x',
  'partials=x',
  'data=x',
  'compat=1',
  'knownHelpersOnly=1',
  'allowProtoPropertiesByDefault=1',
  'allowProtoMethodsByDefault=1',
  'noEscape=1',
  'env=x',
  'tags=x',
].join('&');

const ENGINE_OPTIONS_JSON = JSON.stringify({
  settings: { 'view options': { outputFunctionName: "x;throw new Error('pwned');s", client: true, escapeFunction: 'x' } },
  outputFunctionName: "x;throw new Error('pwned');s",
  escapeFunction: "function(){throw new Error('pwned')}",
  client: true,
  allowProtoPropertiesByDefault: true,
  allowProtoMethodsByDefault: true,
  noEscape: true,
  autoescape: false,
  helpers: { title: 'x' },
});

const ACCEPTS = [
  ['many ranges', 'text/html;q=0.5,'.repeat(900)],
  ['a long token', 'a'.repeat(15_000)],
  ['many semicolons', `*/*${' ;'.repeat(5_000)}`],
  ['a long q value', `text/html;q=0.${'0'.repeat(14_000)}1`],
  ['nested quotes', `text/html;a="${'\\"'.repeat(5_000)}"`],
  ['many slashes', `${'/'.repeat(14_000)}`],
  ['many commas and spaces', `${', '.repeat(7_000)}application/json`],
  ['a parameter storm', `application/json${';a=b'.repeat(3_000)}`],
] as const;

const cases: Case[] = [
  go('a normal path', '/child/', [302]),
  go('CR/LF and a header', '/x\r\nSet-Cookie: a=1', [400, 500]),
  go('a bare LF', '/x\nX-Injected: 1', [400, 500]),
  go('a NUL', '/x\u0000', [400, 500]),
  go('//host', '//evil.example/', [302]),
  go('///host', '///evil.example/', [302]),
  go('/\\host', '/\\evil.example/', [302]),
  go('\\\\host', '\\\\evil.example/', [302]),
  go('\\/host', '\\/evil.example/', [302]),
  go('/<TAB>/host', '/\t/evil.example/', [302, 400, 500]),
  go('<TAB>//host', '\t//evil.example/', [302, 400, 500]),
  go('<SPACE>//host', ' //evil.example/', [302, 400, 500]),
  go('/<VT>/host', '/\u000b/evil.example/', [302, 400, 500]),
  go('an encoded //host', '/%2F%2Fevil.example/', [302]),
  // abort() with codes that are not error statuses: a programming error → generic 500.
  ...['200', '99', '600', '1000', 'abc', '1e3', '-404', '404.5', '__proto__', '', '302'].map(
    (code): Case => ({ name: `abort(${JSON.stringify(code)})`, target: `/fail?code=${encodeURIComponent(code)}`, status: [500], runs: ['root.fail'] }),
  ),
  { name: 'abort(418)', target: '/fail?code=418', status: [418], runs: ['root.fail'] },
  { name: 'abort(503)', target: '/fail?code=503', status: [503], runs: ['root.fail'] },
  // Download names and header values.
  ...['a\r\nSet-Cookie: a=1.csv', 'a\nX-Injected: 1', '../../etc/passwd', 'a\u0000b.csv', '"; filename=evil.exe', 'résumé\r\n.csv', '\u2028x.csv'].map(
    (name): Case => ({
      name: `download named ${JSON.stringify(name)}`,
      target: `/download?name=${encodeURIComponent(name)}`,
      status: [200],
      runs: ['root.download'],
      check: (answer, how) => {
        noInjectedHeader(answer, how);
        const disposition = answer.headers['content-disposition'] ?? '';
        assert.doesNotMatch(disposition, /[\r\n\0]|\.\.\//, `${how}: Content-Disposition ${JSON.stringify(disposition)}`);
        assert.match(disposition, /^attachment/);
      },
    }),
  ),
  { name: 'header value with CR/LF', target: `/header?value=${encodeURIComponent('a\r\nX-Injected: 1')}`, status: [400, 500], runs: ['root.header'], check: noInjectedHeader },
  { name: 'header value with NUL', target: `/header?value=${encodeURIComponent('a\u0000b')}`, status: [400, 500], runs: ['root.header'], check: noInjectedHeader },
  // Template namespaces that look like engine options stay data.
  { name: 'ejs namespace of engine options (query)', target: `/options?${ENGINE_OPTIONS_QUERY}`, status: [200], runs: ['root.options'], check: plainPage },
  { name: 'nunjucks namespace of engine options (query)', target: `/noptions?${ENGINE_OPTIONS_QUERY}`, status: [200], runs: ['root.noptions'], check: plainPage },
  { name: 'handlebars namespace of engine options (query)', target: `/hoptions?${ENGINE_OPTIONS_QUERY}`, status: [200], runs: ['root.hoptions'], check: plainPage },
  ...['options', 'noptions', 'hoptions'].map(
    (path): Case => ({
      name: `/${path}: engine options as a JSON namespace`,
      method: 'POST',
      target: `/${path}`,
      headers: { 'content-type': 'application/json' },
      body: ENGINE_OPTIONS_JSON,
      status: [200],
      runs: [`root.${path}`],
      check: plainPage,
    }),
  ),
  // Template syntax and markup in data are printed, escaped, never evaluated.
  ...['page', 'npage', 'hpage'].map(
    (path): Case => ({
      name: `/${path}: template syntax in a value`,
      target: `/${path}?title=${encodeURIComponent('<%= 7*7 %>{{ 7*7 }}{{constructor.constructor}}<script>')}`,
      status: [200],
      runs: [`root.${path}`],
      check: (answer) => {
        assert.doesNotMatch(answer.body, /49|<script>|function/);
        assert.match(answer.body, /&lt;script&gt;/);
      },
    }),
  ),
  { name: 'markup in a 404 path is not reflected raw', target: '/items/%3Cscript%3Ealert(1)%3C%2Fscript%3E', status: [404], check: (a) => assert.doesNotMatch(a.body, /<script>/) },
  { name: 'markup in a 400 detail is not reflected raw', target: '/child/%3Cscript%3E%zz', status: [400], check: (a) => assert.doesNotMatch(a.body, /<script>/) },
  // ReDoS-shaped Accept headers on every kind of route.
  ...ACCEPTS.flatMap(([label, accept]) =>
    [
      ['/', 'root.index'],
      ['/echo', 'root.echo'],
      ['/books/', 'books.get_all'],
      ['/page', 'root.page'],
      ['/nothing', ''],
      ['/hello.txt', ''],
    ].map(
      ([target, handler]): Case => ({
        name: `Accept with ${label} on ${target}`,
        target: target!,
        headers: { accept },
        status: [200, 404, 406],
        runs: handler ? [handler] : [],
      }),
    ),
  ),
];

test('responses built from bad input: no header injection, no open redirect, no engine options, no ReDoS', (t) => runTable(t, cases));

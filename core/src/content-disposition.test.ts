import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentDisposition } from './content-disposition.ts';
import { assertHeaderValue } from './header-map.ts';

test('a plain ASCII name is quoted; the type is attachment by default or inline', () => {
  assert.equal(contentDisposition('report.pdf'), 'attachment; filename="report.pdf"');
  assert.equal(contentDisposition('report.pdf', { type: 'inline' }), 'inline; filename="report.pdf"');
  assert.equal(contentDisposition('my report (v2).pdf'), 'attachment; filename="my report (v2).pdf"');
});

test('quotes and backslashes are escaped inside the quoted string', () => {
  assert.equal(contentDisposition('say "hi".txt'), 'attachment; filename="say \\"hi\\".txt"');
  assert.equal(contentDisposition('a\\b.txt'), 'attachment; filename="b.txt"');
});

test('CR, LF, NUL and other control characters never get through', () => {
  const value = contentDisposition('evil\r\nSet-Cookie: a=b\u0000.txt');
  assert.equal(value, 'attachment; filename="evilSet-Cookie: a=b.txt"');
  assert.doesNotMatch(value, /[\r\n\0]/);
  assertHeaderValue('Content-Disposition', value);
  const mixed = contentDisposition('naïve\r\n.txt');
  assert.doesNotMatch(mixed, /[\r\n]|%0D|%0A/);
});

test('non-ASCII names get an ASCII fallback and filename*=UTF-8 percent-encoded', () => {
  assert.equal(contentDisposition('résumé.pdf'), `attachment; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
  assert.equal(contentDisposition('日本.txt', { type: 'inline' }), `inline; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`);
  assert.equal(contentDisposition(`€ "q" 'x' (1)*.txt`), `attachment; filename="_ \\"q\\" 'x' (1)*.txt"; filename*=UTF-8''%E2%82%AC%20%22q%22%20%27x%27%20%281%29%2A.txt`);
  const round = /filename\*=UTF-8''(.*)$/.exec(contentDisposition('Ünïcødé ✓.txt'))![1]!;
  assert.equal(decodeURIComponent(round), 'Ünïcødé ✓.txt');
});

test('paths are reduced to their base name; an empty name gives the bare type', () => {
  assert.equal(contentDisposition('../../etc/passwd'), 'attachment; filename="passwd"');
  assert.equal(contentDisposition('C:\\Users\\ann\\a.txt'), 'attachment; filename="a.txt"');
  assert.equal(contentDisposition(''), 'attachment');
  assert.equal(contentDisposition('\r\n', { type: 'inline' }), 'inline');
  assert.throws(() => contentDisposition('a', { type: 'download' as never }), /attachment.*inline/);
});

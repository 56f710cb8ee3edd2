import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HTTPError } from '@hickory/core';
import { PartHeaderGuard } from './part-header-guard.ts';

const B = 'xyzBoundary';

function feed(body: string, size: number, max = 3): void {
  const guard = new PartHeaderGuard(B, max);
  const bytes = Buffer.from(body);
  for (let i = 0; i < bytes.length; i += size) guard.scan(bytes.subarray(i, i + size));
}

function status(fn: () => void): number | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof HTTPError);
    return error.status;
  }
}

const good = `preamble\r\n--${B}\r\nContent-Disposition: form-data; name="a"\r\nX-A: 1\r\n\r\n  body lines\r\n start with spaces\r\n--${B}\r\nContent-Disposition: form-data; name="b"\r\n\r\n\r\n--${B}--\r\n epilogue`;
const folded = `--${B}\r\nContent-Disposition: form-data;\r\n name="a"\r\n\r\n1\r\n--${B}--\r\n`;
const leading = `--${B}\r\n\tContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${B}--\r\n`;
const many = `--${B}\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n1\r\n--${B}--\r\n`;
const lateFold = `--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${B}\r\nContent-Disposition: form-data; name="b"\r\n X: y\r\n\r\n2\r\n--${B}--\r\n`;

for (const size of [1, 2, 3, 7, 13, 1000]) {
  test(`chunks of ${size} bytes: body text is ignored; folds, leading whitespace and too many lines are caught`, () => {
    assert.equal(status(() => feed(good, size)), undefined);
    assert.equal(status(() => feed(folded, size)), 400);
    assert.equal(status(() => feed(leading, size)), 400);
    assert.equal(status(() => feed(many, size)), 413);
    assert.equal(status(() => feed(many, size, 4)), undefined);
    assert.equal(status(() => feed(lateFold, size)), 400);
  });
}

test('after the closing delimiter nothing is checked', () => {
  assert.equal(status(() => feed(`--${B}--\r\n--${B}\r\n bad\r\n\r\n`, 5)), undefined);
});

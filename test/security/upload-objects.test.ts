import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { test } from 'node:test';
import { request } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { UploadedFile } from '@hickory/multipart';
import { createApp } from '@hickory/app';
import { listening, rawExchange } from './harness.ts';

// An upload object returned as JSON or logged used to carry the server's temporary path, or the
// file's bytes as an array of numbers (three times the upload). Its JSON is its name, type and size.

const B = 'uploadObjects';

class Root {
  @expose() index(): string {
    return 'ok';
  }
  // The mistake the test is about: handing the parsed form back as it is.
  @expose('json') echo(): object {
    return request.POST;
  }
  @expose('json') inspected(): object {
    return { text: inspect(request.POST['file'], { depth: 5 }) };
  }
}

function formWith(size: number): string {
  return `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${'x'.repeat(size)}\r\n--${B}--\r\n`;
}

// 10 bytes stay in memory; 300 KiB go to a temporary file (memoryThreshold is 256 KiB).
for (const [where, size] of [
  ['in memory', 10],
  ['in a temporary file', 300 * 1024],
] as const) {
  test(`an upload held ${where} is {filename, type, size} in JSON and in a log`, async () => {
    const app = createApp({ root: new Root() });
    const port = await listening(app);
    try {
      const body = formWith(size);
      const head = `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${body.length}\r\n\r\n`;
      const answer = await rawExchange(port, head + body);
      assert.equal(answer.status, 200);
      assert.equal(answer.body, `{"file":{"filename":"a.txt","type":"text/plain","size":${size}}}`);

      const inspected = await app.inject({ method: 'POST', url: '/inspected', headers: { 'content-type': `multipart/form-data; boundary=${B}` }, payload: body });
      const text = (inspected.json() as { text: string }).text;
      assert.doesNotMatch(text, /hickory-upload-|chunks|\/tmp\//);
      assert.match(text, /filename: 'a\.txt'/);
    } finally {
      await app.close();
    }
  });
}

test('an upload still gives its bytes through its methods', async () => {
  const upload = new UploadedFile({ filename: 'a.txt', type: 'text/plain', encoding: '7bit', size: 5, truncated: false }, { chunks: [Buffer.from('hello')] });
  assert.deepEqual({ ...upload }, { filename: 'a.txt', type: 'text/plain', encoding: '7bit', size: 5, truncated: false });
  const chunks: Buffer[] = [];
  for await (const chunk of upload.file) chunks.push(chunk as Buffer);
  assert.equal(Buffer.concat(chunks).toString(), 'hello');
});

import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy, { type Busboy } from 'busboy';
import { HTTPError, type Request, type Variables } from '@hickory/core';
import { refuseContentEncoding } from '@hickory/core/kit';
import { boundaryOf } from './boundary.ts';
import { checkFieldName, checkFileName } from './form-names.ts';
import type { ResolvedMultipartOptions } from './options.ts';
import { PartHeaderGuard } from './part-header-guard.ts';
import { Spool } from './spool.ts';
import type { TempFiles } from './temp-files.ts';
import { undecodableCharset } from './text-part-charset.ts';
import { UploadedFile } from './uploaded-file.ts';

interface FilePart {
  readonly filename: string;
  readonly type: string;
  readonly encoding: string;
  readonly stream: Readable & { truncated?: boolean };
  readonly spool: Spool;
}

const CLOSE = { Connection: 'close' };
const HWM = 64 * 1024;
const noop = (): void => {};

/**
 * Reads a `multipart/form-data` body from `request.raw` into null-prototype variables: a text
 * field is a string, a file an {@link UploadedFile}, a repeated name an array. Past a limit → 413
 * naming it (`totalFieldSize` bounds the text held in memory for the whole form); a text field in
 * a charset that cannot be decoded → 415; a malformed body, a bad or reserved name → 400; a
 * client that goes away → 400 (the connection is gone by then). Temporary files are recorded in
 * `temps`; on failure they are deleted at once. The promise always settles: whatever throws
 * inside a parser or stream callback rejects it.
 *
 * @example
 * ```ts
 * const variables = await parseMultipart(request, resolveOptions({}), new TempFiles());
 * ```
 */
export function parseMultipart(request: Request, options: ResolvedMultipartOptions, temps: TempFiles): Promise<Variables> {
  const raw = request.raw;
  const { limits } = options;
  try {
    // The parser reads the raw stream: a compressed form is not one it can read.
    refuseContentEncoding(raw.headers['content-encoding'], 'A multipart body');
  } catch (error) {
    return Promise.reject(error);
  }
  const guard = new PartHeaderGuard(boundaryOf(raw.headers['content-type']), limits.headerPairs);
  let parser: Busboy;
  try {
    parser = busboy({
      headers: raw.headers,
      defParamCharset: 'utf8',
      preservePath: false,
      highWaterMark: HWM,
      fileHwm: HWM,
      // The parser signals a limit when it is reached; one more makes it signal only when exceeded.
      limits: {
        parts: limits.parts + 1,
        files: limits.files,
        fields: limits.fields,
        fileSize: limits.fileSize + 1,
        fieldSize: limits.fieldSize + 1,
        headerPairs: limits.headerPairs,
      },
    });
  } catch (error) {
    return Promise.reject(malformed((error as Error).message));
  }

  return new Promise<Variables>((resolve, reject) => {
    const entries: Array<[string, string | FilePart]> = [];
    const spooling: Array<Promise<void>> = [];
    let settled = false;
    let fieldBytes = 0;

    const detach = (): void => {
      raw.off('data', onData);
      raw.off('error', onGone);
      raw.off('close', onClose);
      raw.unpipe(parser);
    };
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      detach();
      // Not synchronously: the parser may be inside its own event emission, and it reads its
      // state again right after ('limit' → `truncated`); destroying it there would throw.
      process.nextTick(() => parser.destroy());
      // Drain what is left of a body we refuse; the error response closes the connection.
      raw.resume();
      temps.removeAll();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      try {
        guard.scan(chunk);
      } catch (error) {
        fail(error);
      }
    };
    const onGone = (): void => fail(new HTTPError(400, 'The upload ended before the end of the form.', CLOSE));
    const onClose = (): void => {
      if (!raw.readableEnded) onGone();
    };

    // A listener that throws would throw out of the socket's 'data' emission (the parser emits
    // synchronously inside write()) and take the process down: every one fails the request instead.
    const guarded =
      <A extends unknown[]>(listener: (...args: A) => void) =>
      (...args: A): void => {
        try {
          listener(...args);
        } catch (error) {
          fail(error);
        }
      };

    parser.on('field', guarded((name: string, value: string | undefined, info: busboy.FieldInfo) => {
      if (settled) return;
      try {
        checkFieldName(name);
      } catch (error) {
        return fail(error);
      }
      if (info.valueTruncated) return fail(tooLarge(`A field value is larger than ${limits.fieldSize} bytes (multipart limit "fieldSize").`));
      // The parser hands no string for a charset it cannot decode (normally refused earlier, by the guard).
      if (typeof value !== 'string') return fail(undecodableCharset());
      fieldBytes += Buffer.byteLength(value);
      if (fieldBytes > limits.totalFieldSize) {
        return fail(tooLarge(`The form's text fields are larger than ${limits.totalFieldSize} bytes together (multipart limit "totalFieldSize").`));
      }
      entries.push([name, value]);
    }));

    parser.on('file', guarded((name: string, stream: Readable, info: busboy.FileInfo) => {
      stream.on('error', noop);
      if (settled) {
        stream.resume();
        return;
      }
      if (info.filename === undefined || info.filename === '') {
        // What a browser sends for a file input left empty (busboy reports filename="" as no name):
        // no file. Only a nameless file with content is refused.
        spooling.push(skipUnselectedFile(name, stream, fail));
        return;
      }
      let filename: string;
      try {
        checkFieldName(name);
        filename = checkFileName(info.filename);
      } catch (error) {
        stream.resume();
        return fail(error);
      }
      stream.once('limit', () => fail(tooLarge(`A file is larger than ${limits.fileSize} bytes (multipart limit "fileSize").`)));
      const spool = new Spool(options.memoryThreshold, options.tmpdir, (path) => temps.add(path));
      entries.push([name, { filename, type: info.mimeType, encoding: info.encoding, stream, spool }]);
      spooling.push(pipeline(stream, spool).catch(fail));
    }));

    parser.on('partsLimit', () => fail(tooLarge(`The form has more than ${limits.parts} parts (multipart limit "parts").`)));
    parser.on('filesLimit', () => fail(tooLarge(`The form has more than ${limits.files} files (multipart limit "files").`)));
    parser.on('fieldsLimit', () => fail(tooLarge(`The form has more than ${limits.fields} fields (multipart limit "fields").`)));
    parser.on('error', (error: Error) => fail(malformed(error.message)));
    parser.on('finish', () => {
      Promise.all(spooling)
        .then(() => {
          if (settled) return;
          const variables = collect(entries);
          settled = true;
          detach();
          resolve(variables);
        })
        .catch(fail);
    });

    raw.on('data', onData); // before pipe(): the guard sees each chunk before the parser does
    raw.on('error', onGone);
    raw.on('close', onClose);
    raw.pipe(parser);
  });
}

function skipUnselectedFile(name: string, stream: Readable, fail: (error: unknown) => void): Promise<void> {
  try {
    checkFieldName(name);
  } catch (error) {
    stream.resume();
    fail(error);
    return Promise.resolve();
  }
  return new Promise((done) => {
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    stream.on('close', () => done());
    stream.on('end', () => {
      if (bytes > 0) fail(new HTTPError(400, 'An uploaded file has no file name.', CLOSE));
      done();
    });
  });
}

function collect(entries: Array<[string, string | FilePart]>): Variables {
  const variables: Variables = Object.create(null);
  for (const [name, entry] of entries) {
    const value =
      typeof entry === 'string'
        ? entry
        : new UploadedFile(
            { filename: entry.filename, type: entry.type, encoding: entry.encoding, size: entry.spool.size, truncated: entry.stream.truncated === true },
            entry.spool.content,
          );
    const existing = variables[name];
    if (existing === undefined) variables[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else variables[name] = [existing, value];
  }
  return variables;
}

function tooLarge(detail: string): HTTPError {
  return new HTTPError(413, detail, CLOSE);
}

function malformed(reason: string): HTTPError {
  const text = reason.replace(/^Multipart: /, '').replace(/\.$/, '');
  return new HTTPError(400, `Malformed multipart body: ${text.charAt(0).toLowerCase()}${text.slice(1)}.`, CLOSE);
}

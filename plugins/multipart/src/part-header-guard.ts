import { HTTPError } from '@hickory/core';
import { checkTextPartCharset } from './text-part-charset.ts';

const EMPTY = Buffer.alloc(0);
const CR = 13;
const LF = 10;
const DASH = 45;
const SPACE = 32;
const TAB = 9;
// The parser's own bound on one part's header block: a longer one fails there as malformed.
const MAX_HEADER_BYTES = 16 * 1024;

const enum Mode {
  Body,
  AfterDelimiter,
  Dash,
  AfterCR,
  Headers,
  HeadersEnd,
  Done,
}

/**
 * Watches a multipart body as it streams past (without copying it) and checks what the parser
 * downstream lets through: a part header line that starts with whitespace (obsolete line
 * folding, or a header block that starts with a space) is a 400, and more than `maxHeaderLines`
 * header lines in one part is a 413 naming the `headerPairs` limit, and a text field in a charset
 * the parser cannot decode is a 415 naming it (see {@link checkTextPartCharset}). Only part
 * headers are read byte by byte; part bodies are skipped with `Buffer.indexOf`.
 *
 * @example
 * ```ts
 * const guard = new PartHeaderGuard('----boundary', 2000);
 * raw.on('data', (chunk) => guard.scan(chunk)); // throws an HTTPError on a bad part header
 * ```
 */
export class PartHeaderGuard {
  private readonly delimiter: Buffer;
  // The body may start with the boundary itself (no preamble): act as if a CRLF came first.
  private tail: Buffer = Buffer.from('\r\n');
  private mode = Mode.Body;
  private lines = 0;
  private lineStart = true;
  // The current part's header bytes, up to MAX_HEADER_BYTES.
  private header: number[] = [];

  constructor(
    boundary: string,
    private readonly maxHeaderLines: number,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** Checks the next chunk of the body; throws an {@link HTTPError} on a bad part header. */
  scan(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.mode === Mode.Body) {
        const after = this.findDelimiter(chunk, pos);
        if (after === -1) return;
        this.tail = EMPTY;
        this.mode = Mode.AfterDelimiter;
        pos = after;
        continue;
      }
      if (this.mode === Mode.Done) return;
      const byte = chunk[pos++]!;
      switch (this.mode) {
        case Mode.AfterDelimiter:
          if (byte === DASH) this.mode = Mode.Dash;
          else if (byte === CR) this.mode = Mode.AfterCR;
          else this.mode = Mode.Body; // not a delimiter after all: body data
          break;
        case Mode.Dash:
          this.mode = byte === DASH ? Mode.Done : Mode.Body;
          break;
        case Mode.AfterCR:
          if (byte === LF) {
            this.mode = Mode.Headers;
            this.lines = 0;
            this.lineStart = true;
            this.header = [];
          } else {
            this.mode = Mode.Body;
          }
          break;
        case Mode.Headers:
          if (this.header.length < MAX_HEADER_BYTES) this.header.push(byte);
          if (this.lineStart) {
            this.lineStart = false;
            if (byte === CR) {
              this.mode = Mode.HeadersEnd;
            } else if (byte === SPACE || byte === TAB) {
              throw new HTTPError(400, 'Malformed multipart body: a part header line starts with whitespace.', { Connection: 'close' });
            } else if (++this.lines > this.maxHeaderLines) {
              throw new HTTPError(413, `A part has more than ${this.maxHeaderLines} header lines (multipart limit "headerPairs").`, {
                Connection: 'close',
              });
            }
          } else if (byte === LF) {
            this.lineStart = true;
          }
          break;
        case Mode.HeadersEnd:
          // The parser reports a missing LF itself.
          this.mode = Mode.Body;
          if (byte === LF) this.endOfHeaders();
          break;
      }
    }
  }

  private endOfHeaders(): void {
    const block = Buffer.from(this.header).toString('latin1').replace(/\r$/, '');
    this.header = [];
    checkTextPartCharset(block);
  }

  // Index just past the next delimiter in `chunk` from `pos` (counting one that straddles the
  // previous chunk), or -1 after remembering the end of the chunk for the next call.
  private findDelimiter(chunk: Buffer, pos: number): number {
    const d = this.delimiter;
    const tail = this.tail;
    if (tail.length > 0) {
      const joined = Buffer.concat([tail, chunk.subarray(pos, pos + d.length - 1)]);
      const at = joined.indexOf(d);
      if (at !== -1) return pos + at + d.length - tail.length;
    }
    const at = chunk.indexOf(d, pos);
    if (at !== -1) return at + d.length;
    const rest = chunk.length - pos;
    if (rest >= d.length - 1) {
      this.tail = Buffer.from(chunk.subarray(chunk.length - (d.length - 1)));
    } else {
      const joined = Buffer.concat([tail, chunk.subarray(pos)]);
      this.tail = joined.subarray(Math.max(0, joined.length - (d.length - 1)));
    }
    return -1;
  }
}

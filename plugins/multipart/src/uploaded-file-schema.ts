import { UploadedFile } from './uploaded-file.ts';

// The Standard Schema (v1) and Standard JSON Schema interfaces, written out: this package takes
// no dependency for two object shapes.
interface Issue {
  readonly message: string;
}
type Result = { readonly value: UploadedFile; readonly issues?: undefined } | { readonly issues: readonly Issue[] };
type JsonSchemaOf = (options: { readonly target: string }) => Record<string, unknown>;

/** The type of {@link uploadedFile}: a Standard Schema whose output is an {@link UploadedFile}. */
export interface UploadedFileSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'hickory';
    readonly validate: (value: unknown) => Result;
    readonly types?: { readonly input: unknown; readonly output: UploadedFile };
    readonly jsonSchema: { readonly input: JsonSchemaOf; readonly output: JsonSchemaOf };
  };
}

// A file's bytes, as OpenAPI describes an upload in a multipart/form-data body.
const BINARY: JsonSchemaOf = () => ({ type: 'string', format: 'binary' });

/**
 * An argument schema for an upload (`expose({ args: { file: uploadedFile } })`): the handler
 * receives the {@link UploadedFile}, and a request without a file in that field is a 400 naming
 * it. The OpenAPI document describes the field as `{ type: 'string', format: 'binary' }` and the
 * request body as `multipart/form-data` only.
 *
 * @example
 * ```ts
 * class Files {
 *   @expose('json', { args: { file: uploadedFile }, status: 201 })
 *   async store(file: UploadedFile) { await file.saveTo(`./store/${file.filename}`); return { name: file.filename }; }
 * }
 * ```
 */
export const uploadedFile: UploadedFileSchema = Object.freeze({
  '~standard': Object.freeze({
    version: 1 as const,
    vendor: 'hickory' as const,
    validate: (value: unknown): Result => (value instanceof UploadedFile ? { value } : { issues: [{ message: 'Expected a file (a field of a multipart/form-data body)' }] }),
    jsonSchema: Object.freeze({ input: BINARY, output: BINARY }),
  }),
});

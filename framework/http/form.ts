import { ParseError, UnsupportedMediaType } from '../errors';
import { utf8Fault } from './utf8';

/** One uploaded file of a multipart form. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body: its text fields and its files, by name, in the order sent. */
export interface FormBody {
  fields: Map<string, string[]>;
  files: Map<string, UploadedFile[]>;
}

export function isMultipart(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === 'multipart/form-data';
}

/**
 * Parses a multipart/form-data body (already read within the body-size limit). The parser is the
 * one Node's fetch implementation uses for `Response#formData`, so no multipart code of ours.
 */
export async function readForm(raw: Buffer | undefined, contentType: string | undefined): Promise<FormBody> {
  if (!isMultipart(contentType)) throw new UnsupportedMediaType((contentType ?? '').split(';')[0].trim());
  const form: FormBody = { fields: new Map(), files: new Map() };
  if (!raw || raw.length === 0) return form;
  let parsed: Awaited<ReturnType<Response['formData']>>;
  try {
    parsed = await new Response(raw, { headers: { 'content-type': String(contentType) } }).formData();
  } catch (err) {
    throw new ParseError(`Multipart form parse error - ${(err as Error).message}`);
  }
  for (const [name, value] of parsed.entries()) {
    if (typeof value === 'string') {
      form.fields.set(name, [...(form.fields.get(name) ?? []), value]);
    } else {
      const file: UploadedFile = { filename: value.name, contentType: value.type || 'application/octet-stream', data: Buffer.from(await value.arrayBuffer()) };
      form.files.set(name, [...(form.files.get(name) ?? []), file]);
    }
  }
  return form;
}

/** An uploaded file's content as text, or null when it is not valid UTF-8. */
export function fileText(file: UploadedFile): string | null {
  return utf8Fault(file.data) ? null : file.data.toString('utf8');
}

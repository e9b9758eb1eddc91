import { FieldError } from '../errors';
import { applyColumn, baseInfo } from './common';
import type { FieldKind } from './kind';

/** DRF's message for a file field given anything but an uploaded file (a JSON body). */
export const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';

/** An image recognised from its bytes: the file extension and media type to store and serve it with. */
export interface SniffedImage {
  ext: 'png' | 'jpg' | 'gif' | 'webp';
  mediaType: string;
  width: number;
  height: number;
}

export const IMAGE_MEDIA_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function jpegSize(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    // Standalone markers carry no length.
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    // Start of frame (baseline, progressive, lossless…): height then width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function webpSize(b: Buffer): { width: number; height: number } | null {
  if (b.length < 30) return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return null;
}

/**
 * The image format and pixel size read from a file's own bytes (magic numbers and headers), never
 * from the name or media type the client sent: PNG, JPEG, GIF and WebP. SVG is refused: it is a
 * document that may carry scripts, served from the API's origin.
 */
export function sniffImage(data: Buffer): SniffedImage | null {
  const make = (ext: SniffedImage['ext'], size: { width: number; height: number } | null): SniffedImage | null =>
    size && size.width > 0 && size.height > 0 ? { ext, mediaType: IMAGE_MEDIA_TYPES[ext], ...size } : null;
  if (data.length >= 24 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && data.toString('latin1', 12, 16) === 'IHDR') {
    return make('png', { width: data.readUInt32BE(16), height: data.readUInt32BE(20) });
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return make('jpg', jpegSize(data));
  if (data.length >= 10 && /^GIF8[79]a$/.test(data.toString('latin1', 0, 6))) return make('gif', { width: data.readUInt16LE(6), height: data.readUInt16LE(8) });
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return make('webp', webpSize(data));
  return null;
}

/** An uploaded file of a multipart form (http/form.ts's UploadedFile). */
interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Whether a parsed value is an uploaded file (a multipart form's), not text. */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data);
}

/**
 * An image file (Django's ImageField): written as an uploaded file of a multipart form, stored as
 * the file's path under the media directory, read as the absolute URL the file is served at
 * (`<base>/media/<path>`). The model writes the file (it knows where); the kind only checks that
 * a file was sent.
 */
export const imageFileKind: FieldKind = {
  name: 'image-file',
  decorate(proto, property, options: { column?: string }) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'varchar', length: 100, nullable: false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const index = scope.column(field.column as string);
    return (row, rc) => {
      const path = row[index];
      return path ? `${rc.baseUrl}/media/${String(path)}` : null;
    };
  },
  parse(_field, input) {
    if (!isUploadedFile(input)) throw new FieldError(NOT_A_FILE);
    return input;
  },
  load: (field, row) => (row[field.column as string] ?? '') as string,
  storeColumn: (_field, value) => value,
  defaultValue: () => undefined,
  lookups: () => [],
  comparison: 'identity',
  info: (field) => ({ ...baseInfo(field, 'image upload') }),
  schema: () => ({ type: 'string', format: 'uri' }),
};

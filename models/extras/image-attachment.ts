import { randomUUID } from 'node:crypto';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BaseModel,
  DataKey,
  FALSE,
  FieldError,
  Filter,
  Predicates,
  type FilterContext,
  type Predicate,
  fieldTest,
  Field,
  GenericForeignKey,
  isUploadedFile,
  Model,
  sniffImage,
  Store,
  ValidationError,
  type FieldMeta,
  type Id,
  type ModelMeta,
  type Values,
  type WriteContext,
  type WriteListener,
  type WriteScope,
} from '../../framework';

/** Where uploaded files go: the media directory and the largest image accepted. */
export class MediaStore implements WriteListener {
  constructor(
    readonly root: string,
    readonly maxImageBytes: number,
  ) {}

  /** The absolute path of a stored file (`image-attachments/<uuid>.png`), never outside the root. */
  file(relative: string): string | null {
    const full = path.resolve(this.root, relative);
    return full.startsWith(path.resolve(this.root) + path.sep) ? full : null;
  }

  private pending(scope: WriteScope): { written: string[]; removed: string[] } {
    let state = scope.features.get(MEDIA_KEY);
    if (!state) {
      state = { written: [], removed: [] };
      scope.features.set(MEDIA_KEY, state);
    }
    return state;
  }

  /** Writes an uploaded file now; removed again if the transaction rolls back. */
  write(scope: WriteScope, relative: string, data: Buffer): void {
    const full = this.file(relative) as string;
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, data, { flag: 'wx' });
    this.pending(scope).written.push(full);
  }

  async deleting(model: ModelMeta, ids: Id[], scope: WriteScope): Promise<void> {
    if (model.cls !== ImageAttachment) return;
    const rows = await new Store(scope.tx).find(model, fieldTest(model.field('id') as FieldMeta, 'exact', ids));
    for (const row of rows) {
      const full = row.image ? this.file(String(row.image)) : null;
      if (full) this.pending(scope).removed.push(full);
    }
  }

  committed(scope: WriteScope): void {
    const state = scope.features.get(MEDIA_KEY);
    scope.features.delete(MEDIA_KEY);
    for (const full of state?.removed ?? []) removeQuietly(full);
  }

  rolledBack(scope: WriteScope): void {
    const state = scope.features.get(MEDIA_KEY);
    scope.features.delete(MEDIA_KEY);
    for (const full of state?.written ?? []) removeQuietly(full);
  }
}

function removeQuietly(full: string): void {
  try {
    unlinkSync(full);
  } catch {
    /* already gone */
  }
}

const MEDIA_KEY = new DataKey<{ written: string[]; removed: string[] }>('media:pending');

function mediaOf(wc: WriteContext): MediaStore {
  const media = wc.listeners.find((l): l is MediaStore => l instanceof MediaStore);
  if (!media) throw new Error('image attachments need the media store among the write listeners');
  return media;
}

/** The models an image can be attached to. */
const PARENT_TYPES: readonly string[] = ['dcim.device', 'dcim.location', 'dcim.rack', 'dcim.site'];

/**
 * An image attached to a device, location, rack or site. Nautobot 1.6 uploads them only in its
 * web UI; netinv also accepts a multipart/form-data POST (`content_type`, `object_id`, `image`,
 * optional `name`). The file is stored under the media directory as
 * `image-attachments/<uuid>.<ext>`, its format and size read from its bytes.
 */
@Model({
  path: 'image-attachments',
  display: { fields: ['name', 'original_name'], render: (v) => String(v.name || v.original_name || '') },
  brief: ['name', 'image'],
  ordering: ['name'],
  multipart: true,
})
export class ImageAttachment extends BaseModel {
  @GenericForeignKey({
    types: [...PARENT_TYPES],
    typeField: 'content_type',
    idField: 'object_id',
    required: true,
    onDelete: 'cascade',
    visibleOnly: true,
    notFound: { on: 'model', message: 'Invalid parent object: {type_text} ID {id}' },
  })
  parent!: unknown;

  @Field.String({ maxLength: 50, blank: true, required: false, default: '' })
  name!: string;

  @Field.Image()
  image!: string;

  @Field.Integer({ min: 0, max: 32767, readOnly: true, default: 0, lookups: false })
  image_height!: number;

  @Field.Integer({ min: 0, max: 32767, readOnly: true, default: 0, lookups: false })
  image_width!: number;

  @Field.DateTime({ readOnly: true, autoNowAdd: true, lookups: false })
  created!: Date;

  /**
   * Nautobot's `content_type_id`: the parent's type by the id of its content type
   * (`/api/extras/content-types/`); an id naming none is refused as Django refuses a choice.
   */
  @Filter({ type: 'integer', multiple: 'last', lookups: ['n'], help: 'Content type (ID)' })
  static async content_type_id(value: number, p: Predicates, _values: unknown[], fc: FilterContext): Promise<Predicate> {
    const contentTypes = p.model.registry?.get('contenttypes.contenttype');
    if (!contentTypes) throw new Error('the registry has no content types');
    const [type] = await new Store(fc.db).find(contentTypes, { id: value });
    if (!type) throw new FieldError('Select a valid choice. That choice is not one of the available choices.');
    const label = `${String(type.app_label)}.${String(type.model)}`;
    // Any content type is a valid value; one that cannot be a parent matches nothing.
    return PARENT_TYPES.includes(label) ? p.lookup('content_type', 'exact', label) : FALSE;
  }

  /** The uploaded file's name, shown as `display` when `name` is empty; not a field of the API. */
  @Field.String({ maxLength: 255, hidden: true, readOnly: true, lookups: false, default: '' })
  original_name!: string;

  /** An uploaded file: its format and size from its bytes, within the configured size. */
  static async prepare(values: Values, wc: WriteContext): Promise<void> {
    const file = values.image;
    if (!isUploadedFile(file)) return;
    const media = mediaOf(wc);
    if (file.data.length === 0) throw ValidationError.field('image', 'The submitted file is empty.');
    if (file.data.length > media.maxImageBytes) {
      throw ValidationError.field('image', `The file is larger than ${media.maxImageBytes} bytes.`);
    }
    const sniffed = sniffImage(file.data);
    if (!sniffed) {
      throw ValidationError.field('image', 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.');
    }
    values.image_width = Math.min(sniffed.width, 32767);
    values.image_height = Math.min(sniffed.height, 32767);
    values.original_name = path.basename(file.filename || `image.${sniffed.ext}`).slice(0, 255);
    values.image = { ...file, ext: sniffed.ext };
  }

  /** After validation (the parent exists): the file is written, the row keeps its path. */
  static async beforeSave(values: Values, wc: WriteContext): Promise<void> {
    const file = values.image as unknown;
    if (!isUploadedFile(file)) return;
    const media = mediaOf(wc);
    const previous = wc.current?.image ? String(wc.current.image) : null;
    const relative = `image-attachments/${randomUUID()}.${(file as { ext?: string }).ext ?? 'bin'}`;
    media.write(wc as unknown as WriteScope, relative, file.data);
    values.image = relative;
    // A replaced file goes once the change commits.
    if (previous) {
      const full = media.file(previous);
      if (full) wc.features.get(MEDIA_KEY)?.removed.push(full);
    }
  }
}

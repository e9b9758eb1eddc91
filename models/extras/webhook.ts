import {
  NotesUrl,
  BaseModel,
  ChangeLoggedModel,
  ContentTypesField,
  Field,
  ForeignKey,
  Model,
  ValidationError,
  type Values,
  type WriteContext,
} from '../../framework';
import { WEBHOOK_HTTP_METHODS } from './choices';

const ACTIONS = [
  ['type_create', 'create'],
  ['type_update', 'update'],
  ['type_delete', 'delete'],
] as const;

/** An HTTP callback fired when objects of the selected models are created, updated or deleted. */
@Model({
  path: 'webhooks',
  display: 'name',
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'payload_url', 'additional_headers', 'body_template'],
})
export class Webhook extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @ContentTypesField({ forFeature: 'changelog' })
  content_types!: string[];

  @Field.String({ maxLength: 150, unique: true })
  name!: string;

  @Field.Boolean({ default: false, help: 'Call this webhook when a matching object is created.' })
  type_create!: boolean;

  @Field.Boolean({ default: false, help: 'Call this webhook when a matching object is updated.' })
  type_update!: boolean;

  @Field.Boolean({ default: false, help: 'Call this webhook when a matching object is deleted.' })
  type_delete!: boolean;

  @Field.String({ maxLength: 500, label: 'URL', help: 'A POST will be sent to this URL when the webhook is called.' })
  payload_url!: string;

  /** Not part of the 1.6 representation: kept, filterable, always true when created through the API. */
  @Field.Boolean({ default: true, readOnly: true, writeOnly: true })
  enabled!: boolean;

  @Field.String({ maxLength: 30, default: 'POST', label: 'HTTP method', lookups: false })
  http_method!: string;

  @Field.String({ maxLength: 100, default: 'application/json', label: 'HTTP content type' })
  http_content_type!: string;

  @Field.Text({ blank: true, default: '', help: 'User-supplied HTTP headers to be sent with the request in addition to the HTTP content type. Headers should be defined in the format <code>Name: Value</code>.' })
  additional_headers!: string;

  @Field.Text({ blank: true, default: '', help: 'Body template for the request; the default JSON payload when empty.' })
  body_template!: string;

  @Field.String({ maxLength: 255, blank: true, default: '', help: 'When provided, the request will include an X-Hook-Signature header containing a HMAC-SHA512 hex digest of the payload body using the secret as the key.' })
  secret!: string;

  @Field.Boolean({ default: true, label: 'SSL verification', help: 'Enable SSL certificate verification.' })
  ssl_verification!: boolean;

  @Field.String({ maxLength: 4096, nullable: true, default: null, label: 'CA file path' })
  ca_file_path!: string | null;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (!(WEBHOOK_HTTP_METHODS as readonly string[]).includes(String(values.http_method))) {
      throw new ValidationError({ http_method: [`"${String(values.http_method)}" is not a valid choice.`] });
    }
    if (!ACTIONS.some(([flag]) => values[flag] === true)) {
      throw ValidationError.model('You must select at least one type: create, update, and/or delete.');
    }
    if (!values.ssl_verification && values.ca_file_path) {
      throw ValidationError.field('ca_file_path', 'Do not specify a CA certificate file if SSL verification is disabled.');
    }
    await checkOverlap(values, wc);
  }
}

/** Two webhooks may not send the same event of the same model to the same URL. */
async function checkOverlap(values: Values, wc: WriteContext): Promise<void> {
  const others = (await wc.store.find(Webhook, { payload_url: values.payload_url })).filter((w) => w.id !== wc.id);
  const types = new Set(values.content_types as string[]);
  for (const other of others) {
    const shared = (other.content_types as string[]).filter((ct) => types.has(ct)).sort();
    if (!shared.length) continue;
    for (const [flag, action] of ACTIONS) {
      if (values[flag] && other[flag]) {
        throw ValidationError.field(flag, `A webhook already exists for ${action} on ${shared[0].replace('.', ' | ')} to URL ${String(values.payload_url)}`);
      }
    }
  }
}

/**
 * A webhook request waiting to be sent (or given up on): written in the transaction of the change,
 * sent after commit by the delivery worker, so it survives a restart and is never lost to a
 * rollback. Body and headers are final when queued; the signature is computed over that body.
 */
@Model({ path: null, display: 'id', indexTogether: [['state', 'next_attempt_at']] })
export class WebhookDelivery extends BaseModel {
  @ForeignKey(() => Webhook, { onDelete: 'cascade', related: 'deliveries' })
  webhook!: Webhook;

  /** `pending`, `sending` (claimed until `lease_until`), `delivered` or `failed`. */
  @Field.String({ maxLength: 20 })
  state!: string;

  @Field.Integer({ min: 0, max: 32767, default: 0 })
  attempts!: number;

  @Field.DateTime()
  next_attempt_at!: Date;

  @Field.DateTime({ nullable: true })
  lease_until!: Date | null;

  @Field.String({ maxLength: 500 })
  url!: string;

  @Field.String({ maxLength: 30 })
  method!: string;

  /** JSON object of header name → value. */
  @Field.Text()
  headers!: string;

  @Field.Text({ blank: true })
  body!: string;

  @Field.Boolean()
  ssl_verification!: boolean;

  @Field.String({ maxLength: 4096, nullable: true })
  ca_file_path!: string | null;

  @Field.Text({ blank: true, default: '' })
  last_error!: string;

  @Field.DateTime()
  created!: Date;
}

import {
  Store,
  CachedConfig,
  cachedConfig,
  LATEST_VERSION,
  TemplateError,
  and,
  fieldTest,
  type FieldMeta,
  databaseForms,
  renderSnapshots,
  type Executor,
  type Id,
  type JsonObject,
  type ModelMeta,
  type Values,
  type WriteListener,
  type WriteScope,
  DataKey,
  newRowId,
} from '../../framework';
import { ObjectChange } from './object-change';
import { Webhook, WebhookDelivery } from './webhook';
import { buildRequest, webhookContext, type ChangeAction, type WebhookSettings } from './webhook-payload';

/** One change of one object within the current transaction. */
interface PendingChange {
  model: ModelMeta;
  id: Id;
  action: ChangeAction;
  /** API form, taken before deletion; for creates and updates when the transaction is about to commit. */
  snapshot?: JsonObject;
  /** Database form (the record's `object_data`), taken at the same moment. */
  stored?: JsonObject;
}

interface ChangeBuffer {
  changes: PendingChange[];
  /** Creates and updates by `<label>:<id>`: several saves of one object in a request make one record. */
  saved: Map<string, PendingChange>;
  deliveriesQueued: boolean;
}

const BUFFER_KEY = new DataKey<ChangeBuffer>('changelog:pending');

/** Snapshots follow the newest serializer shapes (a list-valued `nat_outside`, never a 412). */
const SNAPSHOT_VERSION = LATEST_VERSION;

/** Models whose changes are logged: those with `created`/`last_updated`, except the log itself. */
function isLogged(model: ModelMeta): boolean {
  return model.has('changelog') && !model.has('changelog-exempt');
}

function bufferOf(scope: WriteScope): ChangeBuffer {
  let buffer = scope.features.get(BUFFER_KEY);
  if (!buffer) {
    buffer = { changes: [], saved: new Map(), deliveriesQueued: false };
    scope.features.set(BUFFER_KEY, buffer);
  }
  return buffer;
}

function fieldOf(model: ModelMeta, name: string): FieldMeta {
  return model.field(name) as FieldMeta;
}

function groupByModel(changes: PendingChange[]): Map<ModelMeta, PendingChange[]> {
  const groups = new Map<ModelMeta, PendingChange[]>();
  for (const c of changes) groups.set(c.model, [...(groups.get(c.model) ?? []), c]);
  return groups;
}

/** API and database forms of objects of one model, read in the current transaction. */
async function snapshotsOf(scope: WriteScope, model: ModelMeta, ids: Id[]): Promise<{ api: Map<Id, JsonObject>; stored: Map<Id, JsonObject> }> {
  const { api, stored: columns } = await renderSnapshots(scope.registry, model, ids, scope.tx, SNAPSHOT_VERSION, scope.features);
  const stored = await databaseForms(scope.tx, model, columns, (id) => {
    const rendered = api.get(id);
    if (!rendered) return undefined;
    const tags = Array.isArray(rendered.tags) ? rendered.tags.map((t) => String((t as JsonObject).name)) : undefined;
    return { tags, custom_fields: (rendered.custom_fields as JsonObject | undefined) ?? {} };
  });
  return { api, stored };
}

/** Snapshots of the created and updated objects, one render per model. */
async function snapshotSaved(scope: WriteScope, changes: PendingChange[]): Promise<void> {
  for (const [model, group] of groupByModel(changes.filter((c) => !c.snapshot))) {
    const { api, stored } = await snapshotsOf(scope, model, group.map((c) => c.id));
    for (const c of group) {
      c.snapshot = api.get(c.id);
      c.stored = stored.get(c.id);
    }
  }
}

/** The snapshot of each object's latest earlier change record (a webhook's `prechange`). */
async function previousSnapshots(tx: Executor, scope: WriteScope, changes: PendingChange[]): Promise<Map<string, JsonObject>> {
  const model = scope.registry.forClass(ObjectChange);
  const out = new Map<string, JsonObject>();
  for (const [changed, group] of groupByModel(changes.filter((c) => c.action !== 'create'))) {
    const rows = await new Store(tx).find(model, and([fieldTest(fieldOf(model, 'changed_object_type'), 'exact', [changed.label]), fieldTest(fieldOf(model, 'changed_object_id'), 'exact', group.map((c) => c.id))]));
    rows.sort((a, b) => (a.time as Date).getTime() - (b.time as Date).getTime());
    for (const row of rows) out.set(`${changed.label}:${String(row.changed_object_id)}`, row.object_data_v2 as JsonObject);
  }
  return out;
}

const WEBHOOKS_CACHE = new CachedConfig<Values[]>('extras.webhooks', ['extras_webhook']);

/** Enabled webhooks as stored, each with the content types and events it listens to. */
async function enabledWebhooks(scope: WriteScope): Promise<Values[]> {
  const model = scope.registry.forClass(Webhook);
  return cachedConfig(scope.tx, WEBHOOKS_CACHE, () => new Store(scope.tx).find(model, fieldTest(fieldOf(model, 'enabled'), 'exact', [true])));
}

const FLAG: Record<ChangeAction, string> = { create: 'type_create', update: 'type_update', delete: 'type_delete' };

async function queueDeliveries(scope: WriteScope, changes: PendingChange[], time: Date, username: string, requestId: string): Promise<boolean> {
  const webhooks = await enabledWebhooks(scope);
  if (webhooks.length === 0) return false;
  const matches = (c: PendingChange) => webhooks.filter((w) => w[FLAG[c.action]] === true && (w.content_types as string[]).includes(c.model.label));
  const relevant = changes.filter((c) => c.snapshot && matches(c).length);
  if (relevant.length === 0) return false;
  const previous = await previousSnapshots(scope.tx, scope, relevant);
  const rows: Values[] = [];
  for (const change of relevant) {
    const context = webhookContext({
      action: change.action,
      time,
      modelName: change.model.name,
      username,
      requestId,
      snapshot: change.snapshot as JsonObject,
      prechange: previous.get(`${change.model.label}:${String(change.id)}`) ?? null,
    });
    for (const webhook of matches(change)) {
      let request: { body: string; headers: Record<string, string> } | null = null;
      let error = '';
      try {
        request = buildRequest(webhook as unknown as WebhookSettings, context);
      } catch (err) {
        // A broken template must not fail the change: the delivery is recorded as failed.
        if (!(err instanceof TemplateError)) throw err;
        error = `template error: ${err.message}`;
      }
      rows.push({
        id: newRowId(),
        webhook: webhook.id,
        state: request ? 'pending' : 'failed',
        attempts: 0,
        next_attempt_at: time,
        lease_until: null,
        url: webhook.payload_url,
        method: webhook.http_method,
        headers: JSON.stringify(request?.headers ?? {}),
        body: request?.body ?? '',
        ssl_verification: webhook.ssl_verification,
        ca_file_path: webhook.ca_file_path ?? null,
        last_error: error,
        created: time,
      });
    }
  }
  await new Store(scope.tx).insertMany(scope.registry.forClass(WebhookDelivery), rows);
  return rows.some((r) => r.state === 'pending');
}

async function writeRecords(scope: WriteScope, buffer: ChangeBuffer): Promise<void> {
  const changes = buffer.changes.splice(0);
  buffer.saved.clear();
  if (changes.length === 0) return;
  await snapshotSaved(scope, changes);
  const recorded = changes.filter((c) => c.snapshot);
  const time = new Date();
  const requestId = scope.requestId ?? newRowId();
  const username = scope.actor?.username ?? 'Undefined';
  const rows: Values[] = recorded.map((c) => ({
    id: newRowId(),
    time,
    user: scope.actor?.id ?? null,
    user_name: username.slice(0, 150),
    request_id: requestId,
    action: c.action,
    changed_object_type: c.model.label,
    changed_object_id: String(c.id),
    object_repr: String((c.snapshot as JsonObject).display ?? c.id).slice(0, 200),
    object_data: c.stored ?? {},
    object_data_v2: c.snapshot,
  }));
  // Earlier records are read for webhooks' prechange snapshots before this request's are added.
  if (await queueDeliveries(scope, recorded, time, username, requestId)) buffer.deliveriesQueued = true;
  await new Store(scope.tx).insertMany(scope.registry.forClass(ObjectChange), rows);
}

/**
 * Change logging and webhook queueing for every write made through the API: records are written
 * (and deliveries queued) in the write's transaction, so a rollback leaves neither behind.
 * `onDeliveriesQueued` runs after a commit that queued webhook deliveries.
 */
export function changeLogListener(onDeliveriesQueued: () => void): WriteListener {
  return {
    async saved(model, id, action, scope) {
      if (!isLogged(model)) return;
      const buffer = bufferOf(scope);
      const key = `${model.label}:${String(id)}`;
      if (buffer.saved.has(key)) return;
      const change: PendingChange = { model, id, action };
      buffer.saved.set(key, change);
      buffer.changes.push(change);
    },
    async deleting(model, ids, scope) {
      if (!isLogged(model)) return;
      const buffer = bufferOf(scope);
      const { api, stored } = await snapshotsOf(scope, model, ids);
      for (const id of ids) {
        const snapshot = api.get(id);
        // An object created or changed earlier in this request keeps its record, with its last state.
        const earlier = buffer.saved.get(`${model.label}:${String(id)}`);
        if (earlier && !earlier.snapshot) {
          earlier.snapshot = snapshot;
          earlier.stored = stored.get(id);
        }
        buffer.changes.push({ model, id, action: 'delete', snapshot, stored: stored.get(id) });
      }
    },
    async committing(scope) {
      const buffer = scope.features.get(BUFFER_KEY);
      if (buffer) await writeRecords(scope, buffer);
    },
    committed(scope) {
      const buffer = scope.features.get(BUFFER_KEY);
      if (!buffer?.deliveriesQueued) return;
      buffer.deliveriesQueued = false;
      onDeliveriesQueued();
    },
    rolledBack(scope) {
      scope.features.delete(BUFFER_KEY);
    },
  };
}

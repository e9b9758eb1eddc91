import type { FieldInfo, InfoContext } from '../fields/kind';
import type { RequestContext } from '../http/context';
import type { Reply } from '../http/respond';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import { prepareFeatures } from '../features/registry';
import { kindStore } from '../store/kind-store';

function commonInfo(model: ModelMeta): Record<string, FieldInfo> {
  return {
    id: { type: model.integerPk ? 'integer' : 'string', required: false, read_only: true, label: 'Id' },
    display: { type: 'field', required: false, read_only: true, label: 'Display', help_text: 'Human friendly display value' },
    url: { type: 'field', required: false, read_only: true, label: 'Url' },
  };
}

/** Fields OPTIONS describes: the representation's plus write-only ones (passwords). */
function describedFields(model: ModelMeta, version: ApiVersion): FieldMeta[] {
  return model.fields.filter((f) => f.name !== 'id' && !f.hidden && f.inVersion(version));
}

/** A described field with what OPTIONS says of it: the browsable forms are built from the same pairs. */
export interface DescribedField {
  readonly field: FieldMeta;
  readonly info: FieldInfo;
}

/** The model's fields as OPTIONS describes them (choices loaded), in representation order. */
export async function describeFields(ctx: RequestContext, model: ModelMeta): Promise<DescribedField[]> {
  const version = ctx.version as ApiVersion;
  const fields = describedFields(model, version);
  await prepareFeatures(ctx.registry, model, ctx.db.reader, ctx.features);
  const loaded = new Map<FieldMeta, Array<{ value: Json; display: string }>>();
  for (const f of fields) {
    if (f.kind.loadChoices && !f.readOnly) loaded.set(f, await f.kind.loadChoices(f, kindStore(ctx.db.reader)));
  }
  const ic: InfoContext = {
    features: ctx.features,
    version,
    choicesFor: (f) => loaded.get(f),
    nestedInfo(field) {
      const target = field.target as ModelMeta;
      const out: Record<string, FieldInfo> = commonInfo(target);
      for (const name of target.brief) {
        const f = target.field(name);
        if (f && f.kind.relation !== 'many-to-many' && !f.kind.annotation) out[name] = f.kind.info(f, { ...ic, features: undefined, nestedInfo: () => ({}) });
      }
      return out;
    },
  };
  return fields.map((f) => {
    const info = f.kind.info(f, ic);
    const choices = loaded.get(f);
    if (choices) info.choices = choices;
    return { field: f, info };
  });
}

async function fieldMap(ctx: RequestContext, model: ModelMeta): Promise<Record<string, FieldInfo>> {
  const out: Record<string, FieldInfo> = commonInfo(model);
  for (const { field, info } of await describeFields(ctx, model)) out[field.name] = info;
  return out;
}

/**
 * DRF SimpleMetadata: `actions` only for what the caller may do; the object is never looked up.
 * `mayUse` answers from the route's own methods (a list has POST, a detail does not).
 */
export async function optionsView(ctx: RequestContext, model: ModelMeta, mayUse: (method: string) => Promise<boolean>): Promise<Reply> {
  const body: Record<string, unknown> = {
    name: model.title,
    description: model.options.description ?? '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json'],
  };
  const actions: Record<string, unknown> = {};
  const canPost = await mayUse('POST');
  const canPut = await mayUse('PUT');
  if (canPost || canPut) {
    const fields = await fieldMap(ctx, model);
    if (canPost) actions.POST = fields;
    if (canPut) actions.PUT = fields;
  }
  if (Object.keys(actions).length) body.actions = actions;
  return { status: 200, body };
}

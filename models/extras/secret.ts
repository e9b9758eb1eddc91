import {
  BaseModel,
  ChoiceField,
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  OrganizationalModel,
  PrimaryModel,
  ReverseList,
  SecretParametersError,
  secretValue,
  Store,
  validateSecretParameters,
  type Id,
  type JsonObject,
  type Values,
  type WriteContext,
} from '../../framework';
import { SecretsGroupAccessType, SecretsGroupSecretType } from './choices';

/**
 * A pointer to a secret value held elsewhere, read through a secrets provider (core:
 * `environment-variable`, `text-file`; plugins add others). The value is never stored, so no
 * response, change record, webhook or GraphQL answer can carry it.
 */
@Model({
  path: 'secrets',
  display: 'name',
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'slug'],
})
export class Secret extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true, default: '', lookups: false })
  description!: string;

  @Field.String({ maxLength: 100 })
  provider!: string;

  @Field.JSON({ default: () => ({}), required: false, lookups: false })
  parameters!: JsonObject;

  /** The provider must be registered and accept the parameters (Nautobot's messages). */
  static clean(values: Values, wc: WriteContext): void {
    validateSecretParameters(wc.registry, String(values.provider), (values.parameters ?? {}) as JsonObject);
  }
}

/** A named set of secrets, each for one access type and secret type (devices, Git repositories). */
@Model({
  path: 'secrets-groups',
  display: 'name',
  brief: ['name', 'slug'],
  search: ['name', 'slug'],
})
export class SecretsGroup extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true, default: '', lookups: false })
  description!: string;

  /** Read-only; members are added at `/api/extras/secrets-groups-associations/`. */
  @ReverseList(() => SecretsGroupAssociation, 'group')
  secrets!: unknown[];
}

/** Puts a secret into a group for one (access type, secret type) pair; not change-logged. */
@Model({
  path: 'secrets-groups-associations',
  display: {
    fields: ['group.name', 'access_type', 'secret_type', 'secret.name'],
    render: (v) => `${String(v['group.name'])}: ${String(v.access_type)} ${String(v.secret_type)}: ${String(v['secret.name'])}`,
  },
  brief: ['access_type', 'secret_type', 'secret'],
  ordering: ['group', 'access_type', 'secret_type'],
  uniqueTogether: [['group', 'access_type', 'secret_type']],
})
export class SecretsGroupAssociation extends BaseModel {
  @ForeignKey(() => SecretsGroup, { onDelete: 'cascade', related: 'secrets_group_associations', naturalKey: 'slug' })
  group!: SecretsGroup;

  @ChoiceField(SecretsGroupAccessType, { plain: true, maxLength: 32 })
  access_type!: string;

  @ChoiceField(SecretsGroupSecretType, { plain: true, maxLength: 32 })
  secret_type!: string;

  @ForeignKey(() => Secret, { onDelete: 'cascade', related: 'groups_associations', naturalKey: 'slug' })
  secret!: Secret;
}

/** A Secret given as a stored row or by id. */
async function secretRow(store: Store, secret: Id | Values): Promise<Values> {
  if (typeof secret === 'object') return secret;
  const row = await store.get(Secret, secret);
  if (!row) throw new Error(`no secret ${String(secret)}`);
  return row;
}

/**
 * Reads a secret's value where it is used (job code, Git repository credentials), never for a
 * response. `obj` is what parameter templates see. Throws a SecretError whose `String(err)` is
 * Nautobot's message (`SecretValueNotFoundError: Secret "x" (provider "…"): …`).
 */
export async function readSecret(store: Store, secret: Id | Values, options: { obj?: JsonObject | null } = {}): Promise<string> {
  const row = await secretRow(store, secret);
  return secretValue(store.registry, { name: String(row.name), provider: String(row.provider), parameters: row.parameters as JsonObject }, options);
}

/**
 * The value of a group's secret for `accessType` and `secretType` (Nautobot's
 * `SecretsGroup.get_secret_value`): a SecretParametersError when the group has no such secret.
 */
export async function groupSecret(
  store: Store,
  group: Id,
  accessType: SecretsGroupAccessType,
  secretType: SecretsGroupSecretType,
  options: { obj?: JsonObject | null } = {},
): Promise<string> {
  const [assoc] = await store.find(SecretsGroupAssociation, { group, access_type: accessType, secret_type: secretType });
  if (!assoc) {
    const g = await store.get(SecretsGroup, group);
    throw new SecretParametersError(String(g?.name ?? group), '', `No secret of access type "${accessType}" and secret type "${secretType}" in this group`);
  }
  return readSecret(store, assoc.secret as Id, options);
}

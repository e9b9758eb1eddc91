import { Computed, CustomFieldsField, Field, TagsField } from '../decorators';

/** Every model: a UUID primary key. */
export abstract class BaseModel {
  @Field.UUID({ primary: true, slot: 'head', readOnly: true, label: 'Id' })
  id!: string;
}

/** Models whose changes are logged: `created` (a date) and `last_updated`. */
export abstract class ChangeLoggedModel extends BaseModel {
  @Field.Date({ slot: 'tail', rank: 10, readOnly: true, autoNowAdd: true, lookups: ['', 'gte', 'lte'], single: true, feature: 'changelog' })
  created!: string;

  @Field.DateTime({ slot: 'tail', rank: 20, readOnly: true, autoNow: true, lookups: ['', 'gte', 'lte'], single: true })
  last_updated!: Date;
}

/**
 * Organisational models (regions, roles, groups): change-logged, with custom fields, computed
 * fields and relationships, no tags.
 */
export abstract class OrganizationalModel extends ChangeLoggedModel {
  @CustomFieldsField()
  custom_fields!: Record<string, unknown>;

  @Computed({ optIn: 'include', readOnly: true })
  computed_fields!: Record<string, string>;

  @Computed({ optIn: 'include' })
  relationships!: Record<string, unknown>;
}

/** Primary inventory models: organisational features plus tags. */
export abstract class PrimaryModel extends OrganizationalModel {
  @TagsField()
  tags!: string[];
}

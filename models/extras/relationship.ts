import {
  NotesUrl,
  BaseModel,
  ChangeLoggedModel,
  ChoiceField,
  ContentTypeField,
  displaysOf,
  Field,
  Filter,
  ForeignKey,
  matchingIds,
  Model,
  ValidationError,
  type Id,
  type Json,
  type ModelMeta,
  type Predicates,
  type Values,
  type WriteContext,
} from '../../framework';
import { RelationshipRequiredSide, RelationshipType } from './choices';
import { checkSideFilter, relationshipDisplay, SYMMETRIC_TYPES } from './relationship-rules';

type Side = 'source' | 'destination';

/** A user-defined link type between two models; objects show it in their `relationships` block. */
@Model({
  path: 'relationships',
  graphql: false,
  display: { fields: ['name'], render: (v) => relationshipDisplay(String(v.name)) },
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'description'],
})
export class Relationship extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name', separator: '_' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true, lookups: false })
  description!: string;

  @ChoiceField(RelationshipType, { plain: true, default: 'many-to-many', single: true, label: 'Type' })
  type!: RelationshipType;

  @ChoiceField(RelationshipRequiredSide, { plain: true, blank: true, maxLength: 12, lookups: false, label: 'Required on' })
  required_on!: string;

  @ContentTypeField({ forFeature: 'relationships' })
  source_type!: string;

  @Field.String({ maxLength: 50, blank: true, lookups: false, help: 'Label for related destination objects, as displayed on the source object.' })
  source_label!: string;

  @Field.Boolean({ default: false, lookups: false, label: 'Hide for source object', help: 'Hide this relationship on the source object.' })
  source_hidden!: boolean;

  @Field.JSON({ default: null, lookups: false, help: 'Filterset filter matching the applicable source objects of the selected type' })
  source_filter!: Json;

  @ContentTypeField({ forFeature: 'relationships' })
  destination_type!: string;

  @Field.String({ maxLength: 50, blank: true, lookups: false, help: 'Label for related source objects, as displayed on the destination object.' })
  destination_label!: string;

  @Field.Boolean({ default: false, lookups: false, label: 'Hide for destination object', help: 'Hide this relationship on the destination object.' })
  destination_hidden!: boolean;

  @Field.JSON({ default: null, lookups: false, help: 'Filterset filter matching the applicable destination objects of the selected type' })
  destination_filter!: Json;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    for (const side of ['source', 'destination'] as const) {
      const model = wc.registry.get(String(values[`${side}_type`]));
      if (model) await checkSideFilter(wc, model, side, values[`${side}_filter`] as Json);
    }
    if (SYMMETRIC_TYPES.has(String(values.type))) symmetricRules(values);
    if (!wc.creating && wc.current) await immutableWithAssociations(values, wc.current, wc);
  }
}

/** Both ends of a symmetric relationship are the same; a side given alone is copied to the other. */
function symmetricRules(values: Values): void {
  const errors: Record<string, string[]> = {};
  if (values.source_type !== values.destination_type) errors.destination_type = ['Must match source_type for a symmetric relationship'];
  if (values.source_label !== values.destination_label) {
    if (!values.source_label) values.source_label = values.destination_label;
    else if (!values.destination_label) values.destination_label = values.source_label;
    else errors.destination_label = ['Must match source_label for a symmetric relationship'];
  }
  if (values.source_hidden !== values.destination_hidden) errors.destination_hidden = ['Must match source_hidden for a symmetric relationship'];
  const sameFilter = JSON.stringify(values.source_filter ?? null) === JSON.stringify(values.destination_filter ?? null);
  if (!sameFilter) {
    if (!values.source_filter) values.source_filter = values.destination_filter;
    else if (!values.destination_filter) values.destination_filter = values.source_filter;
    else errors.destination_filter = ['Must match source_filter for a symmetric relationship'];
  }
  if (values.required_on) errors.required_on = ['Symmetric relationships cannot be marked as required.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Type and side types cannot change under existing associations. */
async function immutableWithAssociations(values: Values, current: Values, wc: WriteContext): Promise<void> {
  const changed = (['type', 'source_type', 'destination_type'] as const).filter((k) => values[k] !== current[k]);
  if (changed.length === 0) return;
  if ((await wc.store.find(RelationshipAssociation, { relationship: wc.id })).length === 0) return;
  const messages: Record<string, string> = {
    type: 'Not supported to change the type of the relationship when some associations are present in the database, delete all associations first before modifying the type.',
    source_type: 'Not supported to change the type of the source object when some associations are present in the database, delete all associations first before modifying the source type.',
    destination_type: 'Not supported to change the type of the destination object when some associations are present in the database, delete all associations first before modifying the destination type.',
  };
  throw ValidationError.model(messages[changed[0]]);
}

/** One link between a source object and a destination object under a relationship. */
@Model({
  path: 'relationship-associations',
  graphql: false,
  display: {
    fields: ['relationship.name', 'relationship.type'],
    objects: { source: { type: 'source_type', id: 'source_id' }, destination: { type: 'destination_type', id: 'destination_id' } },
    render: (v) => {
      const arrow = SYMMETRIC_TYPES.has(String(v['relationship.type'])) ? '<->' : '->';
      return `${String(v.source ?? 'unknown')} ${arrow} ${String(v.destination ?? 'unknown')} - ${relationshipDisplay(String(v['relationship.name']))}`;
    },
  },
  brief: ['relationship', 'source_id', 'destination_id'],
  uniqueTogether: [['relationship', 'source_type', 'source_id', 'destination_type', 'destination_id']],
  // Objects look up their associations by type and id of either end.
  indexTogether: [['source_type', 'source_id'], ['destination_type', 'destination_id']],
})
export class RelationshipAssociation extends BaseModel {
  @ForeignKey(() => Relationship, { onDelete: 'cascade', related: 'associations', briefAsId: true })
  relationship!: Relationship;

  @ContentTypeField({ forFeature: 'relationships' })
  source_type!: string;

  // The ends are not foreign keys: they may name objects of any model taking part in relationships.
  @Field.UUID()
  source_id!: string;

  @ContentTypeField({ forFeature: 'relationships' })
  destination_type!: string;

  @Field.UUID()
  destination_id!: string;

  /** Associations where the object is either end (meant for symmetric relationships). */
  @Filter({ type: 'uuid', multiple: 'or', help: 'Source or destination' })
  static peer_id(_value: unknown, p: Predicates, values: unknown[]) {
    return p.or([p.lookup('source_id', 'in', values), p.lookup('destination_id', 'in', values)]);
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const [rel] = await wc.store.find(Relationship, { id: values.relationship });
    if (!rel) return;
    const name = relationshipDisplay(String(rel.name));
    for (const side of ['source', 'destination'] as const) {
      if (values[`${side}_type`] !== rel[`${side}_type`]) {
        throw new ValidationError({ [`${side}_type`]: [`${side}_type has a different value than defined in ${name}`] });
      }
    }
    if (values.source_type === values.destination_type && values.source_id === values.destination_id) {
      throw new ValidationError({ destination_id: ['An object cannot form a RelationshipAssociation with itself'] });
    }
    const ends = await describeEnds(values, wc);
    const others = async (attributes: Record<string, unknown>) =>
      (await wc.store.find(RelationshipAssociation, { relationship: rel.id, ...attributes })).filter((a) => a.id !== wc.id);
    const type = String(rel.type);
    if (SYMMETRIC_TYPES.has(type)) {
      if ((await others({ source_id: values.destination_id, destination_id: values.source_id })).length) {
        throw ValidationError.model(`A ${name} association already exists between ${ends.source} and ${ends.destination}`);
      }
      if (type === 'symmetric-one-to-one') {
        for (const side of ['source', 'destination'] as const) {
          const id = values[`${side}_id`];
          if ((await others({ source_id: id })).length || (await others({ destination_id: id })).length) {
            throw new ValidationError({ [side]: [`Unable to create more than one ${name} association involving ${ends[side]} (peer)`] });
          }
        }
      }
    } else {
      if ((type === 'one-to-one' || type === 'one-to-many') && (await others({ destination_id: values.destination_id })).length) {
        throw new ValidationError({ destination: [`Unable to create more than one ${name} association to ${ends.destination} (destination)`] });
      }
      if (type === 'one-to-one' && (await others({ source_id: values.source_id })).length) {
        throw new ValidationError({ source: [`Unable to create more than one ${name} association from ${ends.source} (source)`] });
      }
    }
    for (const side of ['source', 'destination'] as const) {
      const filter = rel[`${side}_filter`] as Json;
      const model = wc.registry.get(String(values[`${side}_type`]));
      if (!model || !filter || typeof filter !== 'object' || Array.isArray(filter) || Object.keys(filter).length === 0) continue;
      const id = values[`${side}_id`] as Id;
      // Ends that do not exist are not checked (Nautobot checks only objects it can load).
      if (!(await exists(wc, model, id))) continue;
      if (!(await matchingIds(wc.tx, model, filter, [id])).has(id)) {
        throw new ValidationError({ [side]: [`${ends[side]} violates ${name} ${side}_filter restriction`] });
      }
    }
  }
}

async function exists(wc: WriteContext, model: ModelMeta, id: Id): Promise<boolean> {
  return (await displaysOf(wc.tx, model, [id])).size > 0;
}

/** The text forms of both ends, as messages show them (the id when the object is gone). */
async function describeEnds(values: Values, wc: WriteContext): Promise<Record<Side, string>> {
  const out = {} as Record<Side, string>;
  for (const side of ['source', 'destination'] as const) {
    const id = values[`${side}_id`] as Id;
    const model = wc.registry.get(String(values[`${side}_type`]));
    out[side] = (model ? (await displaysOf(wc.tx, model, [id])).get(id) : undefined) ?? String(id);
  }
  return out;
}

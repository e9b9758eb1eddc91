import {
  ContentTypesField,
  Field,
  Model,
  NotesUrl,
  OrganizationalModel,
  TreeDepth,
  TreeParent,
  TREE_DISPLAY,
  ValidationError,
  type Values,
  type WriteContext,
} from '../../framework';
import { Location } from './location';

/** Names Nautobot keeps for the location hierarchy's future levels. */
const RESERVED_NAMES = new Set(['region', 'regions', 'site', 'sites', 'rackgroup', 'rackgroups', 'rack group', 'rack groups']);

/** A level of the location hierarchy (Building → Floor → Room) and what its locations may hold. */
@Model({
  path: 'location-types',
  display: TREE_DISPLAY,
  brief: ['name', 'slug', 'tree_depth'],
  ordering: ['name'],
  search: ['name', 'slug'],
})
export class LocationType extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @TreeParent({ display: 'name' })
  parent!: LocationType | null;

  @Field.Boolean({ default: false, help: 'Allow Locations of this type to be parents/children of other Locations of this same type' })
  nestable!: boolean;

  /** The models registered for the `locations` feature that locations of this type may hold. */
  @ContentTypesField({ forFeature: 'locations', required: false, default: () => [], label: 'Content types' })
  content_types!: string[];

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @TreeDepth({ label: 'Tree depth', computedOnReads: true })
  tree_depth!: number;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (RESERVED_NAMES.has(String(values.name).toLowerCase())) {
      throw new ValidationError({ name: ['This name is reserved for future use.'] });
    }
    if (wc.creating || !wc.current) return;
    if (wc.current.nestable && !values.nestable) {
      // Turning nesting off would orphan locations whose parent is of this same type.
      const nested = await wc.store.find(Location, { location_type: wc.id, parent__location_type: wc.id });
      if (nested.length) {
        throw new ValidationError({
          nestable: [`There exist Locations of type ${String(values.name)} that have a parent Location of the same type; nestable cannot be set to false.`],
        });
      }
    }
    if ((wc.current.parent ?? null) !== (values.parent ?? null) && (await wc.store.count(Location, { location_type: wc.id }))) {
      throw new ValidationError({ parent: ['This LocationType currently has Locations using it, therefore its parent cannot be changed at this time.'] });
    }
  }
}

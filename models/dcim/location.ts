import {
  Field,
  Filter,
  type Predicate,
  type Predicates,
  ForeignKey,
  Model,
  NaturalKey,
  NotesUrl,
  PrimaryModel,
  StatusField,
  TreeDepth,
  TreeParent,
  TREE_DISPLAY,
  ValidationError,
  slugify,
  canonicalUuid,
  type Values,
  type WriteContext,
} from '../../framework';
import { Status } from '../extras/status';
import { Tenant } from '../tenancy/tenant';
import { LocationType } from './location-type';
import { Site } from './site';

/** Nautobot's slug source `parent__slug` + `name`: each part slugified, joined by a dash. */
async function slugSource(values: Values, wc: WriteContext): Promise<string | undefined> {
  if (typeof values.name !== 'string') return undefined;
  const parent = values.parent ? await wc.store.get(Location, values.parent as string) : null;
  return parent ? `${slugify(String(parent.slug))}-${slugify(values.name)}` : values.name;
}

/** A place in the location hierarchy (building, floor, room, cage); top-level locations hang off a site. */
@Model({
  path: 'locations',
  display: TREE_DISPLAY,
  brief: ['name', 'slug', 'tree_depth'],
  ordering: ['_name'],
  search: ['name', 'description'],
  uniqueTogether: [['parent', 'name']],
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    subtree: { path: 'parent', descendants: true, self: true, help: 'The given locations and all their descendants' },
    // Locations whose type is the parent type of the given type(s).
    child_location_type: { path: 'location_type.children', naturalKey: 'slug', descendants: false, help: 'Locations that may hold a location of this type' },
  },
})
export class Location extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100 })
  name!: string;

  @NaturalKey('name')
  _name!: string;

  @Field.Slug({ maxLength: 100, from: 'name', source: (values, wc) => slugSource(values, wc as unknown as WriteContext) })
  slug!: string;

  @StatusField(() => Status)
  status!: Status;

  @ForeignKey(() => LocationType, { onDelete: 'protect', related: 'locations' })
  location_type!: LocationType;

  @TreeParent({ display: 'name' })
  parent!: Location | null;

  @ForeignKey(() => Site, { nullable: true, onDelete: 'cascade', related: 'locations' })
  site!: Site | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'locations' })
  tenant!: Tenant | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @TreeDepth({ label: 'Tree depth', computedOnReads: true })
  tree_depth!: number;

  /** Locations whose own site, or an ancestor's, is one of the given sites (slug or id). */
  @Filter({ type: 'string', multiple: 'or', help: 'Base site (slug or ID): the location or an ancestor is at the site' })
  static base_site(_last: string, p: Predicates, all: string[]): Predicate {
    const sites = all.map((v) => (canonicalUuid(v) ? p.or([p.lookup('site', 'exact', canonicalUuid(v)), p.lookup('site__slug', 'exact', v)]) : p.lookup('site__slug', 'exact', v)));
    return p.subtreeOf(p.or(sites));
  }

  /** Locations whose type may hold every one of the given content types. */
  @Filter({ type: 'string', multiple: 'and', lookups: ['n'], help: 'Content type(s) the location type allows' })
  static content_type(_last: string, p: Predicates, all: string[]): Predicate {
    return p.and(all.map((label) => p.lookup('location_type__content_types', 'exact', label)));
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (!wc.creating && wc.current && wc.current.location_type !== values.location_type) {
      throw new ValidationError({ location_type: ['Location type cannot be changed after creation.'] });
    }
    const type = await wc.store.get(LocationType, values.location_type as string);
    if (!type) return;
    const parent = values.parent ? await wc.store.get(Location, values.parent as string) : null;
    if (type.parent) {
      const parentType = await wc.store.get(LocationType, type.parent as string);
      if (!parent) {
        throw new ValidationError({ parent: [`A Location of type ${String(type.name)} must have a parent Location.`] });
      }
      if (parent.location_type !== type.parent && !(type.nestable && parent.location_type === type.id)) {
        const allowed = type.nestable ? `${String(parentType?.name)} or ${String(type.name)}` : String(parentType?.name);
        throw new ValidationError({ parent: [`A Location of type ${String(type.name)} can only have a Location of type ${allowed} as its parent.`] });
      }
      if (values.site) {
        throw new ValidationError({ site: [`A Location of type ${String(type.name)} must not have a Site, as it is a child of another Location.`] });
      }
    } else if (parent) {
      if (!type.nestable || parent.location_type !== type.id) {
        throw new ValidationError({ parent: [`A Location of type ${String(type.name)} cannot have a parent Location.`] });
      }
      if (values.site) {
        throw new ValidationError({ site: [`A Location of type ${String(type.name)} must not have a Site, as it is a child of another Location.`] });
      }
    } else if (!values.site) {
      throw new ValidationError({ site: [`A Location of type ${String(type.name)} must have a Site.`] });
    }
    // (parent, name) is unique, but SQL never finds two null parents equal: root names checked here.
    if (!values.parent && (await wc.store.count(Location, { name: values.name, parent: null }, { exceptId: wc.id }))) {
      throw new ValidationError({ name: ['A root-level location with this name already exists.'] });
    }
  }
}

import { Field, Filter, ForeignKey, Model, NotesUrl, PrimaryModel, TreeDepth, TreeParent, type Predicate, type Predicates } from '../../framework';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS } from './device-component';
import { Device } from './device';
import { Manufacturer } from './manufacturer';

/**
 * A part inside a device (module, line card, transceiver) for asset tracking; items nest. As in
 * Nautobot 1.6 the parent may sit on another device and top-level items may share names.
 */
@Model({
  path: 'inventory-items',
  display: COMPONENT_DISPLAY,
  brief: ['device', 'name', '_depth'],
  ordering: ['_tree_sort'],
  search: ['name', 'part_id', 'serial', 'asset_tag', 'description'],
  uniqueTogether: [['device', 'parent', 'name']],
  filters: {
    ...COMPONENT_FILTERS,
    parent_id: { path: 'parent', by: 'id' },
    child_items: { path: 'children', naturalKey: 'name' },
    has_child_items: { has: 'children' },
  },
})
export class InventoryItem extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'inventory_items', naturalKey: 'name' })
  device!: Device;

  // Written and read as the parent's bare id, as Nautobot's inventory item serializer does.
  @TreeParent({ asId: true })
  parent!: InventoryItem | null;

  @Field.String({ maxLength: 64 })
  name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ForeignKey(() => Manufacturer, { nullable: true, onDelete: 'protect', related: 'inventory_items', naturalKey: 'slug' })
  manufacturer!: Manufacturer | null;

  @Field.String({ maxLength: 50, blank: true, label: 'Part ID', help: 'Manufacturer-assigned part identifier' })
  part_id!: string;

  @Field.String({ maxLength: 255, blank: true, label: 'Serial number', lookups: false })
  serial!: string;

  @Field.String({ maxLength: 50, nullable: true, blank: true, unique: true, label: 'Asset tag', help: 'A unique tag used to identify this item' })
  asset_tag!: string | null;

  @Field.Boolean({ default: false, help: 'This item was automatically discovered' })
  discovered!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @TreeDepth()
  _depth!: number;

  /** `serial` matches case-insensitively and only the last value counts (Nautobot's `serial__iexact`). */
  @Filter({ type: 'string', help: 'Serial number (case-insensitive)' })
  static serial(value: string, p: Predicates): Predicate {
    return p.lookup('serial', 'iexact', value);
  }
}

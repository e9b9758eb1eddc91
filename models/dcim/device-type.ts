import {
  NotesUrl,
  ChoiceField,
  Field,
  ForeignKey,
  Model,
  PrimaryModel,
  RelatedCount,
  ValidationError,
  type Predicate,
  type Predicates,
  type Values,
  type WriteContext,
  Filter,
} from '../../framework';
import { SubdeviceRoleChoices } from './choices';
import { Device } from './device';
import { Manufacturer } from './manufacturer';
import { checkTypeHeight } from './device-placement';
import { DEVICE_TYPE_TEMPLATE_FILTERS, hasRelated } from './device-component-filters';
import { checkParentRole } from './component-template-rules';

/** A hardware model (make and model) with its height; every device is an instance of one. */
@Model({
  path: 'device-types',
  display: { fields: ['manufacturer.name', 'model'], render: (v) => `${String(v['manufacturer.name'])} ${String(v.model)}` },
  brief: ['manufacturer', 'model', 'slug', 'device_count'],
  ordering: ['manufacturer.name', 'model'],
  search: ['manufacturer.name', 'model', 'part_number', 'comments'],
  // The slug is unique only per manufacturer: two vendors may both have an `x1`.
  uniqueTogether: [['manufacturer', 'model'], ['manufacturer', 'slug']],
  filters: {
    instances: { path: 'instances', by: 'id' },
    has_instances: { has: 'instances' },
    ...DEVICE_TYPE_TEMPLATE_FILTERS,
  },
})
export class DeviceType extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Manufacturer, { onDelete: 'protect', related: 'device_types' })
  manufacturer!: Manufacturer;

  @Field.String({ maxLength: 100 })
  model!: string;

  @Field.Slug({ maxLength: 100, from: 'model', unique: false })
  slug!: string;

  @Field.String({ maxLength: 50, blank: true })
  part_number!: string;

  @Field.Integer({ min: 0, max: 32767, default: 1, required: false, label: 'Height (U)' })
  u_height!: number;

  @Field.Boolean({ default: true, label: 'Is full depth' })
  is_full_depth!: boolean;

  @ChoiceField(SubdeviceRoleChoices, { blank: true, single: true, label: 'Parent/child status' })
  subdevice_role!: string;

  @Field.Text()
  comments!: string;

  @RelatedCount(() => Device, 'device_type')
  device_count!: number;

  /** Types with front or rear port templates (true), or neither (false). */
  @Filter({ type: 'boolean', help: 'Has pass-through ports' })
  static pass_through_ports(value: boolean, p: Predicates): Predicate {
    return hasRelated(p, value, ['front_port_templates', 'rear_port_templates']);
  }

  /** A child device type goes into a parent's bay and takes no rack units of its own. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkParentRole(values, wc);
    if (values.u_height && values.subdevice_role === 'child') {
      throw new ValidationError({ u_height: ['Child device types must be 0U.'] });
    }
    await checkTypeHeight(values, wc);
  }
}

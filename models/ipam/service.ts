import {
  NotesUrl,
  ChoiceField, Field, Filter, ForeignKey, ManyToMany, Model, NaturalKey, PrimaryModel, ValidationError,
  type Predicate, type Predicates, type Values,
} from '../../framework';
import { Device } from '../dcim/device';
import { VirtualMachine } from '../virtualization/virtual-machine';
import { ServiceProtocol } from './choices';
import { IPAddress } from './ip-address';

/** Ports as Nautobot prints them: runs of consecutive numbers collapsed, `80, 443-444`. */
export function portRanges(ports: readonly number[]): string {
  const runs: Array<[number, number]> = [];
  for (const port of ports) {
    const last = runs[runs.length - 1];
    if (last && port === last[1] + 1) last[1] = port;
    else runs.push([port, port]);
  }
  return runs.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)).join(', ');
}

function portsOf(value: unknown): number[] {
  if (Array.isArray(value)) return value as number[];
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value) as unknown;
      return Array.isArray(parsed) ? (parsed as number[]) : [];
    } catch {
      return [];
    }
  }
  return [];
}

/** Sorts port lists numerically: each port zero-padded, so text order is numeric order. */
function portsSortKey(text: string): string {
  return text
    .split(',')
    .filter((p) => p !== '')
    .map((p) => p.padStart(5, '0'))
    .join(',');
}

/** A layer-four service (protocol and ports) on a device or a virtual machine. */
@Model({
  path: 'services',
  display: {
    fields: ['name', 'protocol', 'ports'],
    render: (v) => `${String(v.name)} (${String(v.protocol ?? '').toUpperCase()}/${portRanges(portsOf(v.ports))})`,
  },
  brief: ['name', 'protocol', 'ports'],
  ordering: ['protocol', '_ports'],
  search: ['name', 'description'],
})
export class Service extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { nullable: true, onDelete: 'cascade', related: 'services' })
  device!: Device | null;

  @ForeignKey(() => VirtualMachine, { nullable: true, onDelete: 'cascade', related: 'services' })
  virtual_machine!: VirtualMachine | null;

  @Field.String({ maxLength: 100 })
  name!: string;

  @Field.IntegerArray({ min: 1, max: 65535 })
  ports!: number[];

  @NaturalKey('ports', portsSortKey)
  _ports!: string;

  /** Optional for the serializer, refused blank by the model: an omitted protocol is reported by clean(). */
  @ChoiceField(ServiceProtocol, { required: false, default: '' })
  protocol!: string;

  @ManyToMany(() => IPAddress, { writeBy: 'pk', required: false, lookups: false, related: 'services', label: 'IP addresses' })
  ipaddresses!: string[];

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  /** Services listening on this port. */
  @Filter({ type: 'integer', help: 'Port' })
  static port(value: number, p: Predicates): Predicate {
    return p.lookup('ports', 'contains', value);
  }

  /** Nautobot's Service.clean: exactly one parent, and a protocol. */
  static async clean(values: Values): Promise<void> {
    if (!values.protocol) throw ValidationError.field('protocol', 'This field cannot be blank.');
    if (values.device && values.virtual_machine) {
      throw ValidationError.nonField('A service cannot be associated with both a device and a virtual machine.');
    }
    if (!values.device && !values.virtual_machine) {
      throw ValidationError.nonField('A service must be associated with either a device or a virtual machine.');
    }
  }
}

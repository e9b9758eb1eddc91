/**
 * Generic filter tests: every filter that the framework generates for every registered model is
 * accepted with a well-formed value, selects (or excludes) an object by its own value, and answers
 * a malformed value with a 400 naming the parameter, with strict filtering on and off. A new
 * model or field is covered the moment it is declared. Objects lacking the value a filter needs
 * are made with it; a case no object can be made for is a skipped test whose name says why.
 */
import { randomUUID } from 'node:crypto';
import * as ipaddr from 'ipaddr.js';
import { coreRegistry } from '../../app/database';
import { filterSetFor, type FilterDescription } from '../../framework/filterset/filterset';
import { reverseName } from '../../framework/query/orm';
import type { FieldMeta, ModelMeta } from '../../framework/metadata/model-meta';
import { LATEST_VERSION } from '../../framework/versioning/version';
import { FACTORIES } from '../factories/all';
import { contextFor, type FactoryContext } from '../factories';
import { startApp, type TestApp } from '../helpers/harness';

const registry = coreRegistry();
const routed = registry.routed;
const UNKNOWN_UUID = '00000000-0000-4000-8000-00000000dead';
/** Text no object holds, made of what LIKE patterns, SQL strings and the dialects' escapes treat specially. */
const ANY_TEXT = `%_!\\'"[x]*`;

let app: TestApp;
let lenient: TestApp;
beforeAll(async () => {
  // The filters' meaning is tested here, not the regex time limit (test/spec/filtering.test.ts):
  // on a loaded machine a plain pattern may take longer than the default 750 ms.
  app = await startApp({ NETINV_REGEX_TIMEOUT_MS: '15000' });
  lenient = await startApp({ NETINV_STRICT_FILTERING: 'false', NETINV_REGEX_TIMEOUT_MS: '15000' }, { databaseSuffix: 'lenient' });
});
afterAll(async () => {
  await app?.close();
  await lenient?.close();
});

type Obj = Record<string, unknown> & { id: string };

/** Objects of each model in one app, created on demand through the factories. */
class Objects {
  private readonly cache = new Map<string, Promise<Obj>>();
  constructor(private readonly target: () => TestApp) {}
  of(label: string): Promise<Obj> {
    let p = this.cache.get(label);
    if (!p) {
      p = (async () => {
        const a = this.target();
        const model = a.server.registry.get(label) as ModelMeta;
        // Read-only models (change records, content types) come from their factories' seeds.
        const id = await contextFor(a, FACTORIES).make(label);
        return (await a.get(`${model.listPath}${id}/`)).body as Obj;
      })();
      this.cache.set(label, p);
    }
    return p;
  }
}

const objects = new Objects(() => app);
const lenientObjects = new Objects(() => lenient);

function fieldKind(model: ModelMeta, d: FilterDescription): string | undefined {
  return d.target ? model.field(d.target)?.kind.name : undefined;
}

/** Values of model filter methods whose values are not free text. */
const WELL_FORMED: Record<string, string> = {
  'dcim.location ?content_type': 'dcim.device',
};

/** A value every filter of this description accepts, taken from real objects where it must exist. */
async function wellFormed(model: ModelMeta, d: FilterDescription, objs: Objects): Promise<string> {
  const given = WELL_FORMED[`${model.label} ?${d.name.replace(/__n$/, '')}`];
  if (given) return given;
  if (d.related) {
    const target = await objs.of(d.related.model);
    if (d.related.by === 'id') return String(target.id);
    return String(target[d.related.naturalKey as string]);
  }
  if (d.choices) return String(d.choices[0]);
  if (d.format === 'address') return '10.0.0.1';
  if (d.format === 'network') return '10.0.0.0/8';
  // Models' own network filters (`address`, `within`, `parent`…) take networks.
  if (d.lookup === 'method' && d.type === 'string' && model.fields.some((f) => f.kind.name === 'network')) return '10.0.0.0/8';
  switch (fieldKind(model, d)) {
    case 'content-types':
      return model.label;
    case 'network':
      if (d.lookup === 'family') return '4';
      return d.lookup?.startsWith('net_') ? '10.0.0.0/8' : '10.';
    case 'ip-family':
      return '4';
    case 'timezone':
      return 'Europe/Amsterdam';
    default:
      break;
  }
  switch (d.type) {
    case 'uuid':
      return (await objs.of(model.label)).id;
    case 'integer':
      return '1';
    case 'number':
      return '1.5';
    case 'date':
      return '2024-01-02';
    case 'date-time':
      return '2024-01-02T03:04:05Z';
    case 'boolean':
      return 'true';
    default:
      return 'x';
  }
}

/** A malformed value and the message it must produce, or null when any text is a valid value. */
function malformed(model: ModelMeta, d: FilterDescription): { value: string; message: string } | null {
  if (d.related) {
    const value = d.related.by === 'id' ? 'not-a-uuid' : 'no-such-object';
    const uuidTarget = d.related.by === 'id' && !registry.get(d.related.model)?.integerPk;
    const message = uuidTarget ? `“${value}” is not a valid UUID.` : `Select a valid choice. ${value} is not one of the available choices.`;
    return { value, message };
  }
  if (d.choices) return { value: 'no-such-choice', message: 'Select a valid choice. no-such-choice is not one of the available choices.' };
  const kind = fieldKind(model, d);
  if (kind === 'network' && d.lookup?.startsWith('net_')) return { value: '10.0.0.300/8', message: 'Invalid IP address format: 10.0.0.300/8' };
  if (kind === 'ip-family' || (kind === 'network' && d.lookup === 'family')) return { value: '5', message: 'Must be 4 or 6.' };
  if (d.format === 'address') return { value: '10.0.0.300', message: 'Invalid IP address format: 10.0.0.300' };
  // Filters written by models that take an object's UUID read as Nautobot's related-object filters.
  if (d.lookup === 'method' && d.type === 'uuid') return { value: 'abc', message: '“abc” is not a valid UUID.' };
  if (kind === 'content-types' || kind === 'timezone') {
    return { value: 'nowhere.nothing', message: 'Select a valid choice. nowhere.nothing is not one of the available choices.' };
  }
  switch (d.type) {
    case 'uuid':
      return { value: 'abc', message: 'Enter a valid UUID.' };
    case 'integer':
      return { value: 'abc', message: 'Enter a whole number.' };
    case 'number':
      return { value: 'abc', message: 'Enter a number.' };
    case 'date':
      return { value: '2024-13-45', message: 'Enter a valid date.' };
    case 'date-time':
      return { value: 'yesterday', message: 'Enter a valid date/time.' };
    default:
      break;
  }
  if (d.lookup === 'regex' || d.lookup === 'iregex') return { value: '(', message: 'Invalid regular expression: missing closing parenthesis.' };
  return null;
}

function query(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/** How a filter selects an object by the object's own value: what the fourth test of a filter does. */
type Selection =
  /** A column of the model (text, number, date, network, choice, content type…): the object's value. */
  | { kind: 'field'; field: FieldMeta }
  /** Objects related through a path of foreign keys, many-to-many fields and reverse relations. */
  | { kind: 'related'; path: string[] }
  /** `has_<relation>` and `<field>__isnull`-like existence filters: true for an object linked through the path. */
  | { kind: 'exists'; path: string[] }
  /** A plain field of the objects one relation away (`mac_address` of a device's interfaces): theirs. */
  | { kind: 'through'; path: string[]; field: FieldMeta }
  /** `q`: the object's text in one of the fields its model searches, or its id. */
  | { kind: 'search'; fields: FieldMeta[] }
  /** No object value selects by this filter in general; the reason is the skipped test's name. */
  | { kind: 'skip'; reason: string };

/** Field kinds whose representation is the value their filters take (JSON and link fields: for existence only). */
const VALUE_KINDS = new Set(['string', 'text', 'slug', 'integer', 'integer-pk', 'uuid', 'date', 'datetime', 'decimal', 'mac-address', 'timezone', 'boolean', 'choice', 'ip-family', 'content-type', 'content-types', 'generic-type', 'generic-id', 'network', 'json', 'many-to-many']);
const TEXT_KINDS = new Set(['string', 'text', 'slug']);
const RELATED_KINDS = new Set(['foreign-key', 'tree-parent', 'status', 'many-to-many']);

/**
 * Filters whose own-value test cannot be built from the model's metadata, with the reason. Each
 * entry is a case the generic test would get wrong, not one it merely finds hard.
 */
const CABLE_SET_BY_CABLES = 'a termination gets its cable only by a cable being created; test/models/dcim-cables.test.ts filters on it';

const NOT_SELECTABLE: Record<string, string> = {
  'extras.job ?tag': 'job records are created by the server without tags',
  'extras.job ?tag__n': 'job records are created by the server without tags',
  'circuits.circuittermination ?cable': CABLE_SET_BY_CABLES,
  'circuits.circuittermination ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.consoleport ?cable': CABLE_SET_BY_CABLES,
  'dcim.consoleport ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.consoleserverport ?cable': CABLE_SET_BY_CABLES,
  'dcim.consoleserverport ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.frontport ?cable': CABLE_SET_BY_CABLES,
  'dcim.frontport ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.interface ?cable': CABLE_SET_BY_CABLES,
  'dcim.interface ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.poweroutlet ?cable': CABLE_SET_BY_CABLES,
  'dcim.poweroutlet ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.powerport ?cable': CABLE_SET_BY_CABLES,
  'dcim.powerport ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.rearport ?cable': CABLE_SET_BY_CABLES,
  'dcim.rearport ?cable__n': CABLE_SET_BY_CABLES,
  'dcim.powerfeed ?cable': CABLE_SET_BY_CABLES,
  'dcim.powerfeed ?cable__n': CABLE_SET_BY_CABLES,
  'ipam.ipaddress ?address__net_equals': 'net_equals compares a network with the host column of an address, which no other value than the network address equals (Nautobot refuses it on host columns)',
  // test/models/dcim-power.test.ts checks these filters against computed values.
  ...Object.fromEntries(
    ['', '__n', '__lt', '__lte', '__gt', '__gte'].map((s) => [`dcim.powerfeed ?available_power${s}`, 'available_power is stored but never represented, so no own value can be read back']),
  ),
};

async function chassisMember({ make }: FactoryContext): Promise<Record<string, unknown>> {
  return { virtual_chassis: await make('dcim.virtualchassis', { master: null }), vc_position: 3, vc_priority: 5 };
}

/** Values for fields a factory leaves empty that the generic fill value would not suit: all the fields to send. */
const FILL: Record<string, (ctx: FactoryContext) => Promise<Record<string, unknown>> | Record<string, unknown>> = {
  'dcim.site.contact_email': ({ n }) => ({ contact_email: `noc${n}@example.net` }),
  // A position and a face need a rack at the device's site.
  'dcim.device.position': async ({ make }) => racked(make),
  'dcim.device.face': async ({ make }) => racked(make),
  // A generic reference names an object of the type it gives.
  'ipam.ipaddress.assigned_object_type': async ({ make }) => ({ assigned_object_type: 'dcim.interface', assigned_object_id: await make('dcim.interface') }),
  'ipam.ipaddress.assigned_object_id': async ({ make }) => ({ assigned_object_type: 'dcim.interface', assigned_object_id: await make('dcim.interface') }),
  // A chassis member has a position; a redundancy priority needs a group.
  'dcim.device.virtual_chassis': chassisMember,
  'dcim.device.vc_position': chassisMember,
  'dcim.device.vc_priority': chassisMember,
  // Records a Git repository owns: only repositories may own them.
  'extras.configcontext.owner_content_type': owned,
  'extras.configcontextschema.owner_content_type': owned,
  'extras.exporttemplate.owner_content_type': owned,
  'dcim.device.device_redundancy_group_priority': async ({ make }) => ({
    device_redundancy_group: await make('dcim.deviceredundancygroup'),
    device_redundancy_group_priority: 10,
  }),
};

async function owned({ make }: FactoryContext): Promise<Record<string, unknown>> {
  return { owner_content_type: 'extras.gitrepository', owner_object_id: await make('extras.gitrepository') };
}

async function racked(make: FactoryContext['make']): Promise<Record<string, unknown>> {
  const site = await make('dcim.site');
  return { site, rack: await make('dcim.rack', { site, location: null, group: null }), position: 1, face: 'front' };
}

/** Filterable fields the representation does not show, and where their value shows. */
const UNSHOWN: Record<string, (obj: Obj) => unknown> = {
  // The changed object's display when the change was made (the seeded region has not changed since).
  'extras.objectchange.object_repr': (obj) => (obj.changed_object as Obj).display,
};

/**
 * What an object must look like for a relation `<label>.<field>` to be valid, when the factories'
 * objects are not: `target` overrides for the object pointed at, `source` for the object holding
 * the field (given the one it points at). Used in both directions (forward and reverse filters).
 */
interface LinkRule {
  target?: Record<string, unknown> | ((ctx: FactoryContext) => Promise<Record<string, unknown>>);
  source?(target: Obj, ctx: FactoryContext): Promise<Record<string, unknown>> | Record<string, unknown>;
}
async function targetOverrides(rule: LinkRule, ctx: FactoryContext): Promise<Record<string, unknown>> {
  return typeof rule.target === 'function' ? rule.target(ctx) : (rule.target ?? {});
}
const sameDeviceType = (target: Obj) => ({ device_type: (target.device_type as Obj).id });
const sameDevice = (target: Obj) => ({ device: (target.device as Obj).id });
const sameMachine = (target: Obj) => ({ virtual_machine: (target.virtual_machine as Obj).id });
const LINKS: Record<string, LinkRule> = {
  // A platform limited to a manufacturer takes devices of that manufacturer's types.
  'dcim.device.platform': { source: async (p, { make }) => ({ device_type: await make('dcim.devicetype', { manufacturer: (p.manufacturer as Obj).id }) }) },
  // Local context data must exist, and validate, for a schema to apply.
  'dcim.device.local_context_schema': { source: () => ({ local_context_data: { ntp: { server: '10.0.0.1' } } }) },
  'virtualization.virtualmachine.local_context_schema': { source: () => ({ local_context_data: { ntp: { server: '10.0.0.1' } } }) },
  // Interfaces bridge, bundle and nest only on their own device (or virtual machine).
  'dcim.interface.parent_interface': { source: (t) => ({ ...sameDevice(t), type: 'virtual' }) },
  'dcim.interface.bridge': { source: sameDevice },
  'dcim.interface.lag': { target: { type: 'lag' }, source: sameDevice },
  'virtualization.vminterface.parent_interface': { source: sameMachine },
  'virtualization.vminterface.bridge': { source: sameMachine },
  'virtualization.vminterface.tagged_vlans': { source: () => ({ mode: 'tagged' }) },
  // Component templates point at templates of their own device type, components at their own device's.
  'dcim.poweroutlettemplate.power_port': { source: sameDeviceType },
  'dcim.frontporttemplate.rear_port': { source: sameDeviceType },
  'dcim.poweroutlet.power_port': { source: sameDevice },
  'dcim.frontport.rear_port': { source: sameDevice },
  'dcim.frontporttemplate.device_type': { source: async (t, { make }) => ({ rear_port: await make('dcim.rearporttemplate', { device_type: t.id }) }) },
  'dcim.frontport.device': { source: async (t, { make }) => ({ rear_port: await make('dcim.rearport', { device: t.id }) }) },
  'dcim.device.virtual_chassis': { source: () => ({ vc_position: 2 }) },
  // Only devices of a parent type have bays.
  'dcim.devicebaytemplate.device_type': { target: { subdevice_role: 'parent', u_height: 1 } },
  'dcim.devicebay.device': { target: async ({ make }) => ({ device_type: await make('dcim.devicetype', { subdevice_role: 'parent' }) }) },
  // A VLAN's group belongs to the VLAN's site.
  'ipam.vlan.group': { source: (g) => ({ site: (g.site as Obj | null)?.id ?? null }) },
  // A service runs on a device or on a virtual machine, not both.
  'ipam.service.virtual_machine': { source: () => ({ device: null }) },
  // A circuit termination lands at a site or in a provider network, not both.
  'circuits.circuittermination.provider_network': { source: () => ({ site: null, location: null }) },
  'circuits.circuittermination.location': { source: (l) => ({ site: (l.site as Obj).id, provider_network: null }) },
  // Racks, rack groups and located objects stay inside their site (and location).
  'dcim.rack.site': { source: () => ({ location: null, group: null }) },
  'dcim.rack.group': { source: (g) => ({ site: (g.site as Obj).id, location: null }) },
  'dcim.rack.location': { source: (l) => ({ site: (l.site as Obj).id, group: null }) },
  'dcim.rackgroup.parent': { source: (g) => ({ site: (g.site as Obj).id }) },
  'dcim.rackgroup.location': { source: (l) => ({ site: (l.site as Obj).id }) },
  'dcim.device.rack': { source: (r) => ({ site: (r.site as Obj).id }) },
  'dcim.device.location': { source: (l) => ({ site: (l.site as Obj).id }) },
  'ipam.vlangroup.location': { source: (l) => ({ site: (l.site as Obj).id }) },
  'dcim.powerpanel.site': { source: () => ({ location: null, rack_group: null }) },
  'dcim.powerpanel.rack_group': { source: (g) => ({ site: (g.site as Obj).id, location: null }) },
  'dcim.powerpanel.location': { source: (l) => ({ site: (l.site as Obj).id, rack_group: null }) },
  // A feed's rack stands in its panel's site.
  'dcim.powerfeed.power_panel': { source: async (p, { make }) => ({ rack: await make('dcim.rack', { site: (p.site as Obj).id, location: null, group: null }) }) },
  'dcim.powerfeed.rack': {
    source: async (r, { make }) => ({ power_panel: await make('dcim.powerpanel', { site: (r.site as Obj).id, location: null, rack_group: null }) }),
  },
  // A child location takes its parent's (nestable) type and no site.
  'dcim.location.parent': { source: (p) => ({ site: null, location_type: (p.location_type as Obj).id }) },
};

/** The relation path a filter's target names (`site.region`, `devices`), or null when it is not one. */
function relationPath(model: ModelMeta, target: string): string[] | null {
  const segments = target.split('.');
  let current: ModelMeta = model;
  for (const segment of segments) {
    const field = current.field(segment);
    if (field?.target && RELATED_KINDS.has(field.kind.name)) {
      current = field.target;
      continue;
    }
    const reverse = current.reverse.find((r) => reverseName(r) === segment);
    if (!reverse) return null;
    current = reverse.model;
  }
  return segments;
}

/** The one relation of the model whose objects have a field `name`, as a path and that field. */
function pathToField(model: ModelMeta, name: string): (string[] & { field: FieldMeta }) | null {
  const hops = [
    ...model.fields.filter((f) => f.target && RELATED_KINDS.has(f.kind.name)).map((f) => ({ step: f.name, target: f.target as ModelMeta })),
    ...model.reverse.map((r) => ({ step: reverseName(r), target: r.model })),
  ].filter((h) => h.target.field(name));
  if (hops.length !== 1) return null;
  return Object.assign([hops[0].step], { field: hops[0].target.field(name) as FieldMeta });
}

function selectionOf(model: ModelMeta, d: FilterDescription): Selection {
  const listed = NOT_SELECTABLE[`${model.label} ?${d.name}`];
  if (listed) return { kind: 'skip', reason: listed };
  if (d.lookup === 'search') {
    const fields = ((model.options as { search?: string[] }).search ?? []).map((f) => model.field(f)).filter((f): f is FieldMeta => !!f && TEXT_KINDS.has(f.kind.name));
    return { kind: 'search', fields };
  }
  if (d.lookup === 'method') return { kind: 'skip', reason: 'a filter method of the model: what it selects is its own rule' };
  if (!d.target) return { kind: 'skip', reason: 'no target' };
  const field = model.field(d.target);
  if (d.lookup === 'exists') {
    if (field && !field.target) return { kind: 'field', field };
    const path = relationPath(model, d.target);
    return path ? { kind: 'exists', path } : { kind: 'skip', reason: `existence through ${d.target}, not a relation path` };
  }
  if (d.related) {
    const path = relationPath(model, d.target);
    return path ? { kind: 'related', path } : { kind: 'skip', reason: `${d.target} is not a relation path` };
  }
  if (!field) {
    const path = pathToField(model, d.target);
    return path ? { kind: 'through', path, field: path.field } : { kind: 'skip', reason: `tests ${d.target} of related objects, reached by a path the description does not give` };
  }
  if (!VALUE_KINDS.has(field.kind.name)) return { kind: 'skip', reason: `${field.kind.name} fields have no value to select by` };
  return { kind: 'field', field };
}

/** A value for a field the factory leaves empty, by kind (the factory's body is kept otherwise). */
function fillValue(field: FieldMeta, d: FilterDescription, n: number): unknown {
  const max = (field.options as { maxLength?: number }).maxLength ?? 100;
  switch (field.kind.name) {
    case 'integer':
      return 1500;
    case 'decimal':
      return '12.5';
    case 'date':
      return '2024-01-02';
    case 'datetime':
      return '2099-01-02T03:04:05Z';
    case 'timezone':
      return 'Europe/Amsterdam';
    case 'choice':
    case 'content-type':
      return d.choices?.[0];
    case 'uuid':
      return randomUUID();
    case 'content-types':
      return [d.choices?.[0]];
    default:
      return `Filled ${n}`.slice(0, max);
  }
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** Objects made for the selection tests: with a field filled, or linked through a relation path. */
class Made {
  private readonly cache = new Map<string, Promise<unknown>>();
  constructor(private readonly target: () => TestApp) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) this.cache.set(key, (p = make()));
    return p;
  }

  /** The representation of an object, in a version that has `field`. */
  async read(model: ModelMeta, id: string, field?: FieldMeta): Promise<Obj> {
    const version = field?.options.since ? `?api_version=${LATEST_VERSION}` : '';
    const res = await this.target().get(`${model.listPath}${id}/${version}`);
    expect(res.status).toBe(200);
    return res.body as Obj;
  }

  /** The model's object, or (when its value is empty) one made with a value in the field. */
  withValue(model: ModelMeta, field: FieldMeta, d: FilterDescription): Promise<Obj> {
    return this.once(`${model.label}.${field.name}`, async () => {
      const own = await this.read(model, (await objects.of(model.label)).id, field);
      const unshown = UNSHOWN[`${model.label}.${field.name}`];
      if (unshown) return { ...own, [field.name]: unshown(own) };
      if (!isEmpty(own[field.name]) || field.kind.name === 'boolean' || d.lookup === 'exists') return own;
      if (!model.allows('create') || field.readOnly) {
        throw new Error(`${model.label}.${field.name} is empty and read-only: list the filter in NOT_SELECTABLE with the reason`);
      }
      const ctx = contextFor(this.target(), FACTORIES);
      const fill = FILL[`${model.label}.${field.name}`];
      return this.read(model, await ctx.make(model.label, fill ? await fill(ctx) : { [field.name]: fillValue(field, d, ctx.n) }), field);
    });
  }

  /**
   * An object of `model` linked through `path` to an object at its end: `{ object, end }`. A
   * forward step makes the end first and names it in the new object; a reverse step makes the
   * object first and names it in the related one.
   */
  linked(model: ModelMeta, path: string[]): Promise<{ object: Obj; end: Obj }> {
    return this.once(`${model.label}:${path.join('.')}`, async () => {
      const ctx = contextFor(this.target(), FACTORIES);
      const chain = async (m: ModelMeta, steps: string[], extra: Record<string, unknown>): Promise<{ id: string; end: { model: ModelMeta; id: string } }> => {
        if (steps.length === 0) {
          const id = await ctx.make(m.label, extra);
          return { id, end: { model: m, id } };
        }
        const [step, ...rest] = steps;
        const field = m.field(step);
        if (field?.target) {
          const rule = LINKS[`${m.label}.${step}`] ?? {};
          const next = await chain(field.target, rest, await targetOverrides(rule, ctx));
          const target = await this.read(field.target, next.id);
          // Many-to-many fields written by slug (config contexts' tags) name their targets so.
          const slugField = (field.options as { slugField?: string }).slugField;
          const ref = slugField ? target[slugField] : next.id;
          const id = await ctx.make(m.label, { ...extra, ...(await rule.source?.(target, ctx)), [step]: field.kind.name === 'many-to-many' ? [ref] : ref });
          return { id, end: next.end };
        }
        const reverse = m.reverse.find((r) => reverseName(r) === step) as { model: ModelMeta; field: FieldMeta };
        const rule = LINKS[`${reverse.model.label}.${reverse.field.name}`] ?? {};
        const id = await ctx.make(m.label, { ...extra, ...(await targetOverrides(rule, ctx)) });
        const source = await rule.source?.(await this.read(m, id), ctx);
        const next = await chain(reverse.model, rest, { ...source, [reverse.field.name]: reverse.field.kind.name === 'many-to-many' ? [id] : id });
        return { id, end: next.end };
      };
      const made = await chain(model, path, {});
      return { object: await this.read(model, made.id), end: await this.read(made.end.model, made.end.id) };
    });
  }
}

const made = new Made(() => app);

/** Escapes a literal for the common regular-expression subset. */
function regexLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}

/** An ISO date or date-time `steps` days (dates) or seconds (date-times) later, in the same form. */
function shifted(v: string, steps: number): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(Date.parse(`${v}T00:00:00Z`) + steps * 86_400_000).toISOString().slice(0, 10);
  return new Date(Date.parse(v) + steps * 1000).toISOString();
}

/** Network `v` (`10.1.2.0/24`, `10.1.2.1/24`) as its first address, length and width in bits. */
function network(v: string): { first: string; host: string; length: number; bits: number } {
  const [addr, length] = ipaddr.parseCIDR(v);
  const bits = addr.kind() === 'ipv4' ? 32 : 128;
  const bytes = addr.toByteArray();
  const masked = bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, length - i * 8));
    return b & (0xff << (8 - keep)) & 0xff;
  });
  return { first: ipaddr.fromByteArray(masked).toString(), host: addr.toString(), length, bits };
}

/** Value that makes a lookup select an object whose own value is `v`. */
function selecting(lookup: string, v: string, field: FieldMeta): string {
  const kind = field.kind.name;
  // Every value of an id filter is a complete UUID, whatever the lookup.
  if (kind === 'uuid' || kind === 'generic-id') return lookup.startsWith('i') ? v.toUpperCase() : v;
  if (kind === 'network' && lookup === 'family') return v.includes(':') ? '6' : '4';
  if (kind === 'network' && lookup.startsWith('net_')) {
    const n = network(v);
    switch (lookup) {
      case 'net_contained': {
        if (n.length === 0) throw new Error(`${v} has no supernet`);
        return `${network(`${n.first}/${n.length - 1}`).first}/${n.length - 1}`;
      }
      case 'net_contains':
        // A host route of the object's own address: inside it, longer than it.
        if (n.length === n.bits) throw new Error(`${v} contains no longer network`);
        return `${n.host}/${n.bits}`;
      case 'net_contains_or_equals':
        return `${n.host}/${n.bits}`;
      case 'net_host':
        return n.host;
      case 'net_host_contained':
      case 'net_in':
        return `${n.first}/${n.length}`;
      default:
        return v;
    }
  }
  switch (lookup) {
    case 'lt':
    case 'gt': {
      const step = lookup === 'lt' ? 1 : -1;
      if (kind === 'date' || kind === 'datetime') return shifted(v, step);
      return String(Number(v) + step);
    }
    case 'icontains':
      return v.slice(1, -1) || v;
    case 'istartswith':
      return v.slice(0, Math.max(1, v.length - 1)).toUpperCase();
    case 'iendswith':
      return v.slice(1).toUpperCase() || v;
    case 'iexact':
      return v.toUpperCase();
    case 'regex':
      return `^${regexLiteral(v)}$`;
    case 'iregex':
      return `^${regexLiteral(v.toUpperCase())}$`;
    default:
      return v;
  }
}

/** A field's representation as the text its filters take. */
function asFilterText(v: unknown): string {
  if (Array.isArray(v)) return asFilterText(v[0]);
  if (v !== null && typeof v === 'object') return String((v as { value?: unknown }).value);
  return String(v);
}

/** The value naming a related object: its id, or its natural key (statuses: their value). */
function naming(d: FilterDescription, end: Obj | string): string {
  // A relation shown as its bare id (a job log's job_result).
  if (typeof end === 'string') return end;
  const info = d.related as NonNullable<FilterDescription['related']>;
  if (info.by === 'id') return String(end.id);
  const key = info.naturalKey as string;
  return String(end[key] ?? (key === 'slug' ? end.value : undefined));
}

/** The object a filter must select by its own value, and that value. */
async function ownSelection(model: ModelMeta, d: FilterDescription, sel: Exclude<Selection, { kind: 'skip' }>): Promise<{ obj: Obj; value: string }> {
  if (sel.kind === 'search') {
    const obj = await objects.of(model.label);
    // q also matches the id: the only way to find an object of a model that searches no text.
    const field = sel.fields.find((f) => typeof obj[f.name] === 'string' && obj[f.name] !== '');
    if (!field && sel.fields.length) throw new Error(`${model.label}: the factory leaves every searched field empty`);
    return { obj, value: String(field ? obj[field.name] : obj.id) };
  }
  if (sel.kind === 'field') {
    const obj = await made.withValue(model, sel.field, d);
    const v = obj[sel.field.name];
    if (d.lookup === 'exists') return { obj, value: String(!isEmpty(v)) };
    return { obj, value: selecting(d.lookup, asFilterText(v), sel.field) };
  }
  if (sel.kind === 'through') {
    const { object, end } = await made.linked(model, sel.path);
    const v = end[sel.field.name];
    if (isEmpty(v)) throw new Error(`${sel.field.model.label}.${sel.field.name} is empty: give its factory a value`);
    return { obj: object, value: selecting(d.lookup, asFilterText(v), sel.field) };
  }
  const step = model.field(sel.path[0]);
  if (sel.kind === 'related' && sel.path.length === 1 && step?.target) {
    // A foreign key or many-to-many field of the model: the object's own related object, when it has one.
    const own = await made.read(model, (await objects.of(model.label)).id, step);
    const related = own[step.name];
    if (!isEmpty(related)) return { obj: own, value: naming(d, (Array.isArray(related) ? related[0] : related) as Obj | string) };
    if (!model.allows('create') || step.readOnly) throw new Error(`${model.label}.${step.name} is empty and read-only: list the filter in NOT_SELECTABLE with the reason`);
  }
  const { object, end } = await made.linked(model, sel.path);
  if (sel.kind === 'exists') return { obj: object, value: 'true' };
  return { obj: object, value: naming(d, end) };
}

const cases = routed.flatMap((model) => filterSetFor(model).describe().map((d) => [model.label, d.name, model, d] as const));

test('every routed model has filters, q among them', () => {
  for (const model of routed) expect(filterSetFor(model).describe().map((d) => d.name)).toEqual(expect.arrayContaining(['id', 'q']));
});

describe.each(cases)('%s ?%s', (_label, name, model, d) => {
  test('a well-formed value is accepted (strict and lenient)', async () => {
    const value = await wellFormed(model, d, objects);
    // One row is enough to see the filter accepted (lists of every model, thousands of times).
    const res = await app.get(`${model.listPath}?${query(name, value)}&limit=1`);
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    const lenientValue = await wellFormed(model, d, lenientObjects);
    expect((await lenient.get(`${model.listPath}?${query(name, lenientValue)}&limit=1`)).status).toBe(200);
  });

  const bad = malformed(model, d);
  if (bad) {
    test('a malformed value is a 400 naming the parameter, with strict filtering on or off', async () => {
      for (const a of [app, lenient]) {
        const res = await a.get(`${model.listPath}?${query(name, bad.value)}`);
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { [name]: [bad.message] } });
      }
      if (d.related && d.related.by !== 'natural-only' && !registry.get(d.related.model)?.integerPk) {
        const res = await app.get(`${model.listPath}?${query(name, UNKNOWN_UUID)}`);
        expect(res.body).toEqual({ [name]: [`Select a valid choice. ${UNKNOWN_UUID} is not one of the available choices.`] });
      }
    });
  } else if (d.type === 'boolean') {
    test('a value it does not know is ignored, as Nautobot\'s NullBooleanSelect does', async () => {
      const all = await app.get(`${model.listPath}?limit=1`);
      const res = await app.get(`${model.listPath}?${query(name, 'maybe')}&limit=1`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(all.body.count);
    });
  } else if (d.lookup === 'method') {
    test.skip('no value is malformed (skipped: a filter method of the model takes any text; its meaning is its own)', () => undefined);
  } else {
    test('no value is malformed: wildcards, quotes and escapes match only themselves', async () => {
      const obj = await objects.of(model.label);
      for (const a of [app, lenient]) expect((await a.get(`${model.listPath}?${query(name, ANY_TEXT)}&limit=1`)).status).toBe(200);
      // Narrowed to the object by id: whether the filter keeps it is the question, not the others.
      const ids = ((await app.get(`${model.listPath}?${query(name, ANY_TEXT)}&id=${obj.id}`)).body.results as Obj[]).map((o) => o.id);
      if (d.negated) expect(ids).toContain(obj.id);
      else expect(ids).not.toContain(obj.id);
    });
  }

  test('an unknown lookup on it is "Unknown filter field" when strict, ignored when lenient', async () => {
    const param = `${name}__bogus`;
    const res = await app.get(`${model.listPath}?${query(param, 'x')}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { [param]: ['Unknown filter field'] } });
    expect((await lenient.get(`${model.listPath}?${query(param, 'x')}`)).status).toBe(200);
  });

  const selection = selectionOf(model, d);
  const selectionTest = selection.kind === 'skip' ? test.skip : test;
  const selectionName = 'the object is selected by its own value, and excluded by the negated lookup';
  selectionTest(selection.kind === 'skip' ? `${selectionName} (skipped: ${selection.reason})` : selectionName, async () => {
    const { obj, value } = await ownSelection(model, d, selection as Exclude<Selection, { kind: 'skip' }>);
    // Narrowed to the object by id (ANDed with the filter): is it kept, not which others are.
    const res = await app.get(`${model.listPath}?${query(name, value)}&id=${obj.id}`);
    expect(res.status).toBe(200);
    const ids = (res.body.results as Obj[]).map((o) => o.id);
    if (d.negated) expect(ids).not.toContain(obj.id);
    else expect(ids).toContain(obj.id);
  });
});

describe('filter descriptions', () => {
  test.each(routed.map((m) => [m.label, m] as const))('%s: every filter described once, with a type and help', (_label, model) => {
    const described = filterSetFor(model).describe();
    const names = described.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual([...filterSetFor(model).filters.keys()].sort());
    for (const d of described) {
      expect(['string', 'integer', 'number', 'boolean', 'date', 'date-time', 'uuid']).toContain(d.type);
      expect(d.help.length).toBeGreaterThan(0);
      if (d.related) expect(registry.get(d.related.model)).toBeDefined();
    }
  });
});

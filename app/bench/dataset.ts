import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RequestData, Store, type Registry } from '../../framework';
import { openDatabase } from '../../framework/store/datasource';
import type { Database, Executor } from '../../framework/store/executor';
import { parseNetwork, type IPNetwork } from '../../framework/network/ip';
import type { Id } from '../../framework/query/id';
import { newRowId } from '../../framework/store/row-ids';
import type { Actor, Values } from '../../framework/serializer/write-context';
import {
  insertObjects, parseObject, prepareValues, saveObject, validateObject, writeContext, type WriteScope,
} from '../../framework/serializer/writer';
import { DEFAULT_VERSION } from '../../framework/versioning/version';
import { loadConfig } from '../config';
import { dataSourceFor, migrate, registryWith } from '../database';
import { Progress } from '../progress';

/** The standard dataset of BENCHMARK.md, in numbers. */
export const DATASET = {
  regions: 5,
  sitesPerRegion: 10,
  deviceTypes: 5,
  deviceRoles: 3,
  devices: 2_000,
  interfacesPerDevice: 10,
  slash24s: 50_000,
  addressesPerSlash24: 2,
  vlanGroups: 50,
  vlansPerGroup: 80,
  tags: 10,
  /** Cables joining eth0 of devices 2k and 2k+1: 2,000 cabled interfaces, each with a path (W12). */
  cables: 1_000,
} as const;

/** What the workloads need to know about the loaded data. */
export interface LoadedDataset {
  token: string;
  /** 10.20.30.0/24 (W3). */
  prefixId: string;
  /** 10.195.0.0/16, partly filled with /24s (W10). */
  availablePrefixId: string;
  /** A /24 the PATCH workload changes (W9). */
  patchPrefixId: string;
  objects: number;
  seconds: number;
}

/** Objects per transaction: large enough for throughput, small enough for a lively progress bar. */
const BATCH = 5_000;

/**
 * The dataset at `scale` (`--scale N`): devices, interfaces, cables, /24s with their addresses and
 * VLAN groups N times over. Copy k > 0 of the address plan lives in (10 + k).0.0.0/8, so copy 0,
 * which the workloads read, is the standard dataset's.
 */
export interface DatasetSize {
  scale: number;
  devices: number;
  slash24s: number;
  vlanGroups: number;
  cables: number;
  total: number;
}

export function datasetSize(scale: number): DatasetSize {
  const devices = DATASET.devices * scale;
  const slash24s = DATASET.slash24s * scale;
  const vlanGroups = DATASET.vlanGroups * scale;
  const cables = DATASET.cables * scale;
  const total =
    DATASET.regions * (1 + DATASET.sitesPerRegion) +
    devices * (1 + DATASET.interfacesPerDevice) +
    scale * 257 + slash24s +
    slash24s * DATASET.addressesPerSlash24 +
    vlanGroups * (1 + DATASET.vlansPerGroup) +
    cables;
  return { scale, devices, slash24s, vlanGroups, cables, total };
}

/** Cables per transaction: each is a full API create (rules, ends, path traces), so fewer than BATCH. */
const CABLE_BATCH = 250;

/** Writes through the framework: single objects with full validation, bulk ones in multi-row INSERTs. */
class Writer {
  constructor(readonly db: Database, readonly registry: Registry) {}

  private scope(tx: Executor, actor: Actor | null = null): WriteScope {
    return { tx, registry: this.registry, version: DEFAULT_VERSION, actor, features: new RequestData(), listeners: [] };
  }

  /**
   * Creates one object exactly as the API would (parse, validate, save) and returns its id;
   * `serverSet` holds values no request body may set (a superuser flag).
   */
  create(label: string, body: Record<string, unknown>, options: { actor?: Actor; serverSet?: Values } = {}): Promise<Id> {
    return this.db.transaction(async (tx) => {
      const model = this.registry.get(label);
      if (!model) throw new Error(`unknown model ${label}`);
      const { values, wc } = await parseObject(model, body, this.scope(tx, options.actor ?? null), null, false);
      Object.assign(values, options.serverSet ?? {});
      await validateObject(model, values, wc);
      return saveObject(model, values, wc);
    });
  }

  /**
   * Creates objects one by one exactly as the API would (parse, validate, save with the model's
   * hooks: a cable sets its ends and stores their paths), `perTransaction` of them in each
   * transaction.
   */
  async createEach(label: string, bodies: Record<string, unknown>[], perTransaction: number, progress: Progress): Promise<Id[]> {
    const model = this.registry.get(label);
    if (!model) throw new Error(`unknown model ${label}`);
    const ids: Id[] = [];
    for (let start = 0; start < bodies.length; start += perTransaction) {
      const end = Math.min(bodies.length, start + perTransaction);
      await this.db.transaction(async (tx) => {
        const scope = this.scope(tx);
        for (let i = start; i < end; i++) {
          const { values, wc } = await parseObject(model, bodies[i], scope, null, false);
          await validateObject(model, values, wc);
          ids.push(await saveObject(model, values, wc));
        }
      });
      progress.advance(end - start, model.label);
    }
    return ids;
  }

  /**
   * Inserts `count` objects of one model. The first body goes through parsing and validation; the
   * others reuse its parsed values with `vary(i)` applied (ids, names, networks, parents), which
   * keeps a 100,000-row load to a few multi-row statements per batch.
   */
  async createMany(
    label: string,
    count: number,
    body: Record<string, unknown>,
    vary: (i: number) => Values,
    progress: Progress,
  ): Promise<Id[]> {
    const model = this.registry.get(label);
    if (!model) throw new Error(`unknown model ${label}`);
    const ids: Id[] = [];
    let template: Values | null = null;
    for (let start = 0; start < count; start += BATCH) {
      const end = Math.min(count, start + BATCH);
      await this.db.transaction(async (tx) => {
        const scope = this.scope(tx);
        if (!template) {
          const parsed = await parseObject(model, body, scope, null, false);
          await validateObject(model, parsed.values, parsed.wc);
          template = parsed.values;
        }
        const objects: Values[] = [];
        for (let i = start; i < end; i++) {
          const id = newRowId();
          const values: Values = { ...template, id, ...vary(i) };
          await prepareValues(model, values, writeContext(model, scope, id, null, false));
          objects.push(values);
          ids.push(id);
        }
        await insertObjects(model, objects, scope);
      });
      progress.advance(end - start, model.label);
    }
    return ids;
  }
}

function network(text: string): IPNetwork {
  return parseNetwork(text);
}

/** The i-th /24 of the address plan: copy k of the standard plan lies in (10 + k).0.0.0/8. */
function slash24(i: number): [number, number, number] {
  const copy = Math.floor(i / DATASET.slash24s);
  const j = i % DATASET.slash24s;
  return [10 + copy, Math.floor(j / 256), j % 256];
}

/** Migrates a fresh database and loads the standard dataset into it. */
export async function loadDataset(databaseUrl: string, scale = 1): Promise<LoadedDataset> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  const registry = registryWith([]);
  const ds: DataSource = await dataSourceFor(config.databaseUrl, registry, false, []);
  await ds.initialize();
  try {
    await migrate(ds, []);
    const db = openDatabase(ds);
    try {
      const loaded = await load(new Writer(db, registry), datasetSize(scale));
      // As a bulk import does: the server then plans with statistics of the loaded tables.
      await db.statistics?.flush();
      return loaded;
    } finally {
      db.close?.();
    }
  } finally {
    await ds.destroy();
  }
}

async function load(w: Writer, size: DatasetSize): Promise<LoadedDataset> {
  const progress = new Progress(size.total, { title: 'dataset' });
  const user = await w.create(
    'users.user',
    { username: 'bench', password: randomBytes(12).toString('hex'), is_staff: true },
    { serverSet: { is_superuser: true } },
  );
  const key = randomBytes(20).toString('hex');
  // A token belongs to the user who creates it, as with `netinv createtoken`.
  await w.create('users.token', { key, write_enabled: true }, { actor: { id: String(user), username: 'bench', isSuperuser: true } });

  const tags: Id[] = [];
  for (let t = 0; t < DATASET.tags; t++) tags.push(await w.create('extras.tag', { name: `Bench tag ${t}`, slug: `bench-tag-${t}`, content_types: ['ipam.prefix'] }));
  await w.create('extras.customfield', { name: 'owner', type: 'text', content_types: ['ipam.prefix'] });
  await w.create('extras.customfield', { name: 'cost', type: 'integer', content_types: ['ipam.prefix'] });

  const sites: Id[] = [];
  for (let r = 0; r < DATASET.regions; r++) {
    const region = await w.create('dcim.region', { name: `Region ${r}` });
    progress.advance(1, 'dcim.region');
    for (let s = 0; s < DATASET.sitesPerRegion; s++) {
      sites.push(await w.create('dcim.site', { name: `Site ${r}-${s}`, status: 'active', region }));
      progress.advance(1, 'dcim.site');
    }
  }
  const manufacturer = await w.create('dcim.manufacturer', { name: 'Bench Networks' });
  const deviceTypes: Id[] = [];
  for (let i = 0; i < DATASET.deviceTypes; i++) deviceTypes.push(await w.create('dcim.devicetype', { manufacturer, model: `BN-${i}` }));
  const roles: Id[] = [];
  for (let i = 0; i < DATASET.deviceRoles; i++) roles.push(await w.create('dcim.devicerole', { name: `Role ${i}`, color: '2196f3' }));
  const platform = await w.create('dcim.platform', { name: 'BenchOS', manufacturer });

  const devices = await w.createMany(
    'dcim.device',
    size.devices,
    { name: 'device-0', device_type: deviceTypes[0], device_role: roles[0], site: sites[0], platform, status: 'active' },
    (i) => ({
      name: `device-${i}`,
      site: sites[i % sites.length],
      device_type: deviceTypes[i % deviceTypes.length],
      device_role: roles[i % roles.length],
    }),
    progress,
  );
  const interfaceIds = await w.createMany(
    'dcim.interface',
    size.devices * DATASET.interfacesPerDevice,
    { device: devices[0], name: 'eth0', type: '1000base-t' },
    (i) => ({ device: devices[Math.floor(i / DATASET.interfacesPerDevice)], name: `eth${i % DATASET.interfacesPerDevice}` }),
    progress,
  );
  // Interface ids run device by device, eth0 first: cable k joins eth0 of devices 2k (A) and 2k+1 (B).
  const eth0 = (device: number) => interfaceIds[device * DATASET.interfacesPerDevice];
  await w.createEach(
    'dcim.cable',
    Array.from({ length: size.cables }, (_, k) => ({
      termination_a_type: 'dcim.interface',
      termination_a_id: eth0(2 * k),
      termination_b_type: 'dcim.interface',
      termination_b_id: eth0(2 * k + 1),
      status: 'connected',
    })),
    CABLE_BATCH,
    progress,
  );

  const rir = await w.create('ipam.rir', { name: 'RFC 1918', is_private: true });
  await w.create('ipam.aggregate', { prefix: '10.0.0.0/8', rir });
  // The /8 and its /16s of each copy of the address plan.
  const container = (i: number) => {
    const first = 10 + Math.floor(i / 257);
    const j = i % 257;
    return network(j === 0 ? `${first}.0.0.0/8` : `${first}.${j - 1}.0.0/16`);
  };
  const prefixCustomFields = (i: number) => ({ owner: `team-${i % 20}`, cost: i % 1000 });
  // Each tag on every tenth prefix, counted over all prefixes (containers first).
  const prefixTags = (i: number) => [tags[i % tags.length]];
  await w.createMany(
    'ipam.prefix',
    257 * size.scale,
    { prefix: '10.0.0.0/8', status: 'container', custom_fields: prefixCustomFields(0), tags: prefixTags(0) },
    (i) => ({
      prefix: container(i),
      custom_fields: prefixCustomFields(i),
      tags: prefixTags(i),
    }),
    progress,
  );
  const slash24Ids = await w.createMany(
    'ipam.prefix',
    size.slash24s,
    { prefix: '10.0.0.0/24', status: 'active', custom_fields: prefixCustomFields(257), tags: prefixTags(257) },
    (i) => {
      const [a, n, m] = slash24(i);
      return { prefix: network(`${a}.${n}.${m}.0/24`), custom_fields: prefixCustomFields(257 + i), tags: prefixTags(257 + i) };
    },
    progress,
  );
  await w.createMany(
    'ipam.ipaddress',
    size.slash24s * DATASET.addressesPerSlash24,
    { address: '10.0.0.1/24', status: 'active' },
    (i) => {
      const [a, n, m] = slash24(Math.floor(i / DATASET.addressesPerSlash24));
      // The first addresses sit on the interfaces, one each, for the GraphQL workload (W11).
      const assigned = i < interfaceIds.length ? { assigned_object_type: 'dcim.interface', assigned_object_id: interfaceIds[i] } : { assigned_object_type: null, assigned_object_id: null };
      return { address: network(`${a}.${n}.${m}.${(i % DATASET.addressesPerSlash24) + 1}/24`), ...assigned };
    },
    progress,
  );

  for (let g = 0; g < size.vlanGroups; g++) {
    const group = await w.create('ipam.vlangroup', { name: `VLAN group ${g}`, site: sites[g % sites.length] });
    progress.advance(1, 'ipam.vlangroup');
    await w.createMany(
      'ipam.vlan',
      DATASET.vlansPerGroup,
      { vid: 1, name: 'vlan-1', group, site: sites[g % sites.length], status: 'active' },
      (i) => ({ vid: i + 1, name: `vlan-${i + 1}` }),
      progress,
    );
  }
  const seconds = progress.finish();

  const indexOf = (n: number, m: number) => n * 256 + m;
  return {
    token: key,
    prefixId: String(slash24Ids[indexOf(20, 30)]),
    availablePrefixId: await containerId(w, 195),
    patchPrefixId: String(slash24Ids[indexOf(100, 100)]),
    objects: size.total,
    seconds,
  };
}

/** Id of the container 10.N.0.0/16, read back through the prefix filter columns. */
async function containerId(w: Writer, n: number): Promise<string> {
  const prefix = w.registry.get('ipam.prefix');
  if (!prefix) throw new Error('the registry has no ipam.prefix');
  const [id] = await new Store(w.db.reader, w.registry).ids(prefix, { prefix: `10.${n}.0.0/16` }, 1);
  if (id === undefined) throw new Error(`10.${n}.0.0/16 is missing from the dataset`);
  return String(id);
}

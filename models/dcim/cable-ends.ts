import { Store, nestedObjects, type ComputedValueProvider, type FieldMeta, type Id, type Json, type ModelMeta, type RenderContext, type Values, type WriteContext } from '../../framework';

import { CablePath } from './cable-path';
import { dropPathsOf, isPassThrough, retrace, retraceThrough } from './cable-trace';

/** The feature a model declares to be a cable termination (Nautobot's `cable_terminations`). */
export const CABLE_TERMINATIONS = 'cable_terminations';

const SIDES = ['a', 'b'] as const;
const CABLE_LABEL = 'dcim.cable';

/** The cable's two ends as (model, id), skipping a model that is not registered. */
function endsOf(cable: Values, registry: WriteContext['registry']): { model: ModelMeta; id: Id }[] {
  const out: { model: ModelMeta; id: Id }[] = [];
  for (const side of SIDES) {
    const model = registry.get(cable[`termination_${side}_type`] as string);
    if (model) out.push({ model, id: cable[`termination_${side}_id`] as Id });
  }
  return out;
}

/** A new cable's ends point at it; the endpoints among them get a path, paths through them are traced again. */
export async function attachEnds(cable: Values, wc: WriteContext): Promise<void> {
  const ends = endsOf(cable, wc.registry);
  for (const end of ends) await wc.store.update(end.model, end.id, { cable: cable.id ?? wc.id });
  const nodes = ends.map((e) => ({ label: e.model.label, id: e.id }));
  for (const n of nodes) if (!isPassThrough(n.label)) await retrace(n, wc);
  await retraceThrough(nodes, wc);
}

/** A status change: the paths through the cable are traced again (active only while every cable is connected). */
export async function statusChanged(cable: Values, wc: WriteContext): Promise<void> {
  if (wc.current && wc.current.status !== cable.status) await retraceThrough([{ label: wc.model.label, id: wc.id }], wc);
}

/** The ends of cables about to be deleted are free again; paths through the cables are traced again or dropped. */
export async function detachEnds(ids: Id[], wc: WriteContext): Promise<void> {
  const cableModel = wc.model;
  for (const cable of await wc.store.find(cableModel, ids)) {
    const ends = endsOf(cable, wc.registry);
    for (const end of ends) await wc.store.update(end.model, end.id, { cable: null });
    await dropPathsOf(ends.map((e) => ({ label: e.model.label, id: e.id })), wc);
    await retraceThrough([{ label: cableModel.label, id: cable.id as Id }], wc);
  }
}

/**
 * Cable terminations about to be deleted take their cables with them (Django's cascade from the
 * cable's ends); each cable's own deletion frees and retraces its far end.
 */
export async function deleteCablesOf(ids: Id[], wc: WriteContext): Promise<void> {
  const cableModel = wc.registry.get(CABLE_LABEL);
  if (!cableModel) return;
  const cables = (await wc.store.find(wc.model, ids)).map((row) => row.cable as Id | null).filter((c): c is Id => !!c);
  const remaining = cables.length ? await wc.store.find(cableModel, [...new Set(cables)]) : [];
  if (remaining.length) await wc.remove(cableModel.cls, remaining.map((c) => c.id as Id));
}

/**
 * The last answer of each page loader here, per render: the three path fields of a page
 * (`connected_endpoint`, `_type`, `_reachable`) ask for the paths of the same ids in turn, the two
 * peer fields for the same cables, and a cable's far end is most often the connected endpoint
 * too. Only the last answer is kept, so a long list read chunk by chunk holds one chunk's.
 */
const LAST_ANSWERS = new WeakMap<object, Map<string, { ids: string; value: Promise<unknown> }>>();

function samePage<T>(rc: object, name: string, ids: readonly Id[], load: () => Promise<T>): Promise<T> {
  let answers = LAST_ANSWERS.get(rc);
  if (!answers) LAST_ANSWERS.set(rc, (answers = new Map()));
  const key = ids.join(',');
  const last = answers.get(name);
  if (last && last.ids === key) return last.value as Promise<T>;
  const value = load();
  answers.set(name, { ids: key, value });
  return value;
}

/** The nested forms of objects of `model`, shared by the fields of one render that show the same objects. */
function nestedForms(model: ModelMeta, ids: Id[], rc: RenderContext): Promise<Map<Id, Json>> {
  const unique = [...new Set(ids)].sort();
  return samePage(rc, `nested:${model.label}`, unique, () => nestedObjects(model, unique, rc));
}

/** For a page of path endpoints of one model: their stored paths, by origin id (one query). */
function pathsOf(field: FieldMeta, ids: Id[], rc: RenderContext): Promise<Map<Id, Values>> {
  return samePage(rc, `paths:${field.model.label}`, ids, () => readPaths(field, ids, new Store(rc.db)));
}

async function readPaths(field: FieldMeta, ids: Id[], db: Store): Promise<Map<Id, Values>> {
  const out = new Map<Id, Values>();
  const pathModel = field.model.registry?.maybeForClass(CablePath);
  if (!pathModel || ids.length === 0) return out;
  // Columns only: a path's links (tags…) are not needed to read where it ends.
  const rows = await db.pluck(pathModel, { origin_type: field.model.label, origin_id__in: ids }, ['origin_id', 'destination_type', 'destination_id', 'is_active']);
  for (const p of rows) out.set(p.origin_id as Id, p as Values);
  return out;
}

/** `connected_endpoint_type`: the label of the path's destination, or null. */
export const connectedEndpointType: ComputedValueProvider = {
  async load(field, ids, rc) {
    const paths = await pathsOf(field, ids, rc);
    return new Map<Id, Json>(ids.map((id) => [id, (paths.get(id)?.destination_type as string) || null]));
  },
};

/** `connected_endpoint_reachable`: null without a path, else whether it is active. */
export const connectedEndpointReachable: ComputedValueProvider = {
  async load(field, ids, rc) {
    const paths = await pathsOf(field, ids, rc);
    return new Map<Id, Json>(ids.map((id) => {
      const p = paths.get(id);
      return [id, p ? Boolean(p.is_active) : null];
    }));
  },
};

/** `connected_endpoint`: the path's destination in its nested form; one query per destination model. */
export const connectedEndpoint: ComputedValueProvider = {
  async load(field, ids, rc) {
    const paths = await pathsOf(field, ids, rc);
    const byLabel = new Map<string, Id[]>();
    for (const p of paths.values()) {
      if (p.destination_id) byLabel.set(p.destination_type as string, [...(byLabel.get(p.destination_type as string) ?? []), p.destination_id as Id]);
    }
    const forms = new Map<string, Map<Id, Json>>();
    for (const [label, destIds] of byLabel) {
      const model = field.model.registry?.get(label);
      if (model) forms.set(label, await nestedForms(model, destIds, rc));
    }
    return new Map<Id, Json>(ids.map((id) => {
      const p = paths.get(id);
      return [id, p?.destination_id ? (forms.get(p.destination_type as string)?.get(p.destination_id as Id) ?? null) : null];
    }));
  },
};

/** For a page of terminations of one model: the far end of each one's cable, as (label, id). */
function peersOf(field: FieldMeta, ids: Id[], rc: RenderContext): Promise<Map<Id, { label: string; id: Id }>> {
  return samePage(rc, `peers:${field.model.label}`, ids, () => readPeers(field, ids, new Store(rc.db)));
}

async function readPeers(field: FieldMeta, ids: Id[], db: Store): Promise<Map<Id, { label: string; id: Id }>> {
  const label = field.model.label;
  const cableModel = field.model.registry?.get(CABLE_LABEL);
  const out = new Map<Id, { label: string; id: Id }>();
  if (!cableModel || ids.length === 0) return out;
  for (const side of SIDES) {
    const other = side === 'a' ? 'b' : 'a';
    const cables = await db.pluck(cableModel, { [`termination_${side}_type`]: label, [`termination_${side}_id__in`]: ids }, ['termination_a_id', 'termination_a_type', 'termination_b_id', 'termination_b_type']);
    for (const c of cables) {
      out.set(c[`termination_${side}_id`] as Id, { label: c[`termination_${other}_type`] as string, id: c[`termination_${other}_id`] as Id });
    }
  }
  return out;
}

/** `cable_peer_type` of cable terminations: the far end's content-type label, or null. */
export const cablePeerType: ComputedValueProvider = {
  async load(field, ids, rc) {
    const peers = await peersOf(field, ids, rc);
    return new Map<Id, Json>(ids.map((id) => [id, peers.get(id)?.label ?? null]));
  },
};

/** `cable_peer` of cable terminations: the far end in its nested form, or null; one query per peer model. */
export const cablePeer: ComputedValueProvider = {
  async load(field, ids, rc) {
    const peers = await peersOf(field, ids, rc);
    const byLabel = new Map<string, Id[]>();
    for (const p of peers.values()) byLabel.set(p.label, [...(byLabel.get(p.label) ?? []), p.id]);
    const forms = new Map<string, Map<Id, Json>>();
    for (const [label, peerIds] of byLabel) {
      const model = field.model.registry?.get(label);
      if (model) forms.set(label, await nestedForms(model, peerIds, rc));
    }
    return new Map<Id, Json>(ids.map((id) => {
      const p = peers.get(id);
      return [id, p ? (forms.get(p.label)?.get(p.id) ?? null) : null];
    }));
  },
};

import { ValidationError, type Id, type ModelMeta, type Values, type Where, type WriteContext } from '../../framework';
import { CablePath } from './cable-path';
import { deletePaths, insertPath, pathsThrough, updatePath } from './cable-path-store';
import { nodeText, pathText, type Node } from './cable-path-text';

const FRONT = 'dcim.frontport';
const REAR = 'dcim.rearport';
const CIRCUIT_END = 'circuits.circuittermination';
const CABLE = 'dcim.cable';

/** Ports that pass a path through instead of ending it. */
export function isPassThrough(label: string): boolean {
  return label === FRONT || label === REAR;
}

interface Trace {
  path: Node[];
  destination: Node | null;
  active: boolean;
  split: boolean;
}

/**
 * What a trace reads of the objects it passes: a node's cable, a port's rear port and positions,
 * a circuit end's circuit and side, a cable's ends and status, a status's slug. Reading only these
 * leaves out the link tables a whole object loads (tags, VLANs): a cable's two traces read four
 * objects, and loading a bulk import's cables was mostly those reads.
 */
const TRACE_FIELDS = [
  'cable', 'rear_port', 'rear_port_position', 'positions', 'circuit', 'term_side', 'status', 'slug',
  'termination_a_type', 'termination_a_id', 'termination_b_type', 'termination_b_id',
];
const TRACED = new WeakMap<ModelMeta, string[]>();

function tracedFields(model: ModelMeta): string[] {
  let names = TRACED.get(model);
  if (!names) TRACED.set(model, (names = TRACE_FIELDS.filter((n) => model.field(n))));
  return names;
}

/** The traced fields of the objects of `model` matching `where`, in primary-key order. */
function traced(wc: WriteContext, model: ModelMeta, where: Where): Promise<Values[]> {
  return wc.store.findFields(model, where, tracedFields(model));
}

/** Reads objects of the trace by label through the write's store; one query per node. */
class Reader {
  private statusSlugs = new Map<Id, string>();
  constructor(private readonly wc: WriteContext) {}

  model(label: string): ModelMeta | undefined {
    return this.wc.registry.get(label);
  }

  async row(label: string, id: Id): Promise<Values | null> {
    const model = this.model(label);
    return model ? (await traced(this.wc, model, [id]))[0] ?? null : null;
  }

  find(label: string, where: Record<string, unknown>): Promise<Values[]> {
    return traced(this.wc, this.model(label) as ModelMeta, where);
  }

  async statusSlug(id: Id): Promise<string> {
    let slug = this.statusSlugs.get(id);
    if (slug === undefined) {
      const status = await this.row('extras.status', id);
      slug = String(status?.slug ?? '');
      this.statusSlugs.set(id, slug);
    }
    return slug;
  }
}

/** Nautobot's CablePath.from_origin: follows cables, pass-through ports and circuits from `origin`. */
export async function trace(origin: Node, wc: WriteContext): Promise<Trace> {
  const r = new Reader(wc);
  const path: Node[] = [];
  const stack: number[] = [];
  const seen = new Set<string>();
  let active = true;
  let split = false;
  let destination: Node | null = null;
  let node: Node | null = origin;
  let row = await r.row(origin.label, origin.id);
  while (node && row?.cable) {
    const key = nodeText(node);
    if (seen.has(key)) throw ValidationError.model('a loop is detected in the path');
    seen.add(key);
    const cable = await r.row(CABLE, row.cable as Id);
    if (!cable) break;
    if ((await r.statusSlug(cable.status as Id)) !== 'connected') active = false;
    path.push({ label: CABLE, id: cable.id as Id });
    const side = cable.termination_a_id === node.id && cable.termination_a_type === node.label ? 'b' : 'a';
    const peer: Node = { label: cable[`termination_${side}_type`] as string, id: cable[`termination_${side}_id`] as Id };
    const peerRow = await r.row(peer.label, peer.id);
    if (!peerRow) break;
    if (peer.label === FRONT) {
      path.push(peer);
      const rear = await r.row(REAR, peerRow.rear_port as Id);
      if (!rear) { node = null; break; }
      if ((rear.positions as number) > 1) stack.push(peerRow.rear_port_position as number);
      node = { label: REAR, id: rear.id as Id };
      row = rear;
      path.push(node);
    } else if (peer.label === REAR) {
      path.push(peer);
      let position = 1;
      if ((peerRow.positions as number) > 1) {
        const popped = stack.pop();
        if (popped === undefined) { split = true; node = null; break; }
        position = popped;
      }
      const fronts = await r.find(FRONT, { rear_port: peer.id, rear_port_position: position });
      if (fronts.length === 0) { node = null; break; }
      node = { label: FRONT, id: fronts[0].id as Id };
      row = fronts[0];
      path.push(node);
    } else if (peer.label === CIRCUIT_END) {
      const others = await r.find(CIRCUIT_END, { circuit: peerRow.circuit as Id, term_side: peerRow.term_side === 'A' ? 'Z' : 'A' });
      if (others.length === 0) { destination = peer; break; }
      path.push(peer);
      node = { label: CIRCUIT_END, id: others[0].id as Id };
      row = others[0];
      path.push(node);
    } else {
      destination = peer;
      break;
    }
  }
  if (!destination) active = false;
  return { path, destination, active, split };
}

/** The stored path of `origin`, traced again in place (same row), or created. */
export async function retrace(origin: Node, wc: WriteContext): Promise<void> {
  const t = await trace(origin, wc);
  const values = {
    destination_type: t.destination?.label ?? '',
    destination_id: t.destination?.id ?? null,
    path: pathText(t.path),
    is_active: t.active,
    is_split: t.split,
  };
  const [existing] = await wc.store.find(CablePath, { origin_type: origin.label, origin_id: origin.id });
  if (existing) await updatePath(wc.store, existing, values);
  else await insertPath(wc.store, { origin_type: origin.label, origin_id: origin.id, ...values });
}

/**
 * Every stored path through one of `nodes` (and the paths in `more`): retraced in place if its
 * origin still has a cable, else deleted.
 */
export async function retraceThrough(nodes: Node[], wc: WriteContext, ...more: Values[]): Promise<void> {
  const found = [...more, ...(await pathsThrough(wc.store, nodes))];
  const done = new Set<Id>();
  for (const p of found) {
    if (done.has(p.id as Id)) continue;
    done.add(p.id as Id);
    const origin: Node = { label: p.origin_type as string, id: p.origin_id as Id };
    const model = wc.registry.get(origin.label);
    const [row] = model ? await traced(wc, model, [origin.id]) : [];
    if (row?.cable) await retrace(origin, wc);
    else await deletePaths(wc.store, [p.id as Id]);
  }
}

/** Paths starting at objects that are gone or no longer cabled. */
export async function dropPathsOf(nodes: Node[], wc: WriteContext): Promise<void> {
  for (const n of nodes) {
    await deletePaths(wc.store, await wc.store.ids(CablePath, { origin_type: n.label, origin_id: n.id }));
  }
}

/**
 * A circuit termination was saved: paths through, starting at or ending at the circuit's
 * opposite termination may now continue (or stop) here, so they are traced again.
 */
export async function circuitTerminationSaved(values: Values, wc: WriteContext): Promise<void> {
  const [opposite] = await wc.store.find(wc.model, { circuit: values.circuit as Id, term_side: values.term_side === 'A' ? 'Z' : 'A' });
  if (!opposite) return;
  const node: Node = { label: wc.model.label, id: opposite.id as Id };
  await retraceThrough([node], wc);
  const ending = await wc.store.find(CablePath, { destination_type: node.label, destination_id: node.id });
  await retraceThrough([], wc, ...ending);
  if (opposite.cable) await retrace(node, wc);
}

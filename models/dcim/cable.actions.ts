import { PowerFeed } from './power-feed';
import { Store, defineActions, type ActionRequest, type Id, type Json, type ModelClass, type Values } from '../../framework';
import { Cable } from './cable';
import { CablePath } from './cable-path';
import { pathsThrough } from './cable-path-store';
import { parseNodes, type Node } from './cable-path-text';
import { ConsolePort } from './console-port';
import { ConsoleServerPort } from './console-server-port';
import { FrontPort } from './front-port';
import { Interface } from './interface';
import { PowerOutlet } from './power-outlet';
import { PowerPort } from './power-port';
import { RearPort } from './rear-port';

const CABLE_LABEL = 'dcim.cable';
/** The keys of a cable inside a trace (Nautobot's TracedCableSerializer). */
const TRACED_CABLE_KEYS = ['id', 'display', 'url', 'type', 'status', 'label', 'color', 'length', 'length_unit', 'created', 'last_updated'];

/** Nested forms of the given nodes, one read per model; cables in their traced form. */
async function formsOf(req: ActionRequest, nodes: Node[]): Promise<Map<string, Json>> {
  const byLabel = new Map<string, Id[]>();
  for (const n of nodes) byLabel.set(n.label, [...(byLabel.get(n.label) ?? []), n.id]);
  const out = new Map<string, Json>();
  for (const [label, ids] of byLabel) {
    const model = req.ctx.registry.get(label);
    if (!model) continue;
    if (label === CABLE_LABEL) {
      const full = (await req.render(Cable, [...new Set(ids)], true)) as Array<Record<string, Json>>;
      for (const c of full) {
        const traced: Record<string, Json> = {};
        for (const k of TRACED_CABLE_KEYS) traced[k] = c[k] ?? null;
        const unit = c.length_unit as { value?: string } | null;
        traced.length_unit = unit?.value ?? '';
        out.set(`${label}:${String(c.id)}`, traced);
      }
      continue;
    }
    for (const [id, form] of await req.nestedMany(model.cls as ModelClass, ids)) out.set(`${label}:${id}`, form);
  }
  return out;
}

const key = (n: Node | null): string => (n ? `${n.label}:${n.id}` : '');

/** The stored path starting at the object of this request, or none. */
async function pathOf(req: ActionRequest, origin: Values): Promise<Values | undefined> {
  const [path] = await req.find(req.ctx.db.reader, CablePath, { origin_type: req.model.label, origin_id: origin.id });
  return path;
}

/** `trace/`: the path cut into [near end, cable, far end] segments; a split ends it; uncabled: []. */
async function traceView(req: ActionRequest) {
  const db = req.ctx.db.reader;
  const origin = await req.object(db, await req.restrict(req.model.cls as ModelClass, 'view'));
  const path = origin.cable ? await pathOf(req, origin) : undefined;
  if (!path) return { status: 200, body: [] };
  const nodes: Array<Node | null> = [{ label: req.model.label, id: origin.id as Id }, ...parseNodes(path.path as string)];
  while ((nodes.length + 1) % 3 !== 0) nodes.push(null);
  nodes.push(path.destination_id ? { label: path.destination_type as string, id: path.destination_id as Id } : null);
  const forms = await formsOf(req, nodes.filter((n): n is Node => n !== null));
  const segments: Json[] = [];
  for (let i = 0; i < nodes.length; i += 3) {
    if (!nodes[i]) break;
    segments.push(nodes.slice(i, i + 3).map((n) => (n ? (forms.get(key(n)) ?? null) : null)));
  }
  return { status: 200, body: segments };
}

/** `paths/` of front and rear ports: every stored path through the port. */
async function pathsView(req: ActionRequest) {
  const db = req.ctx.db.reader;
  const port = await req.object(db, await req.restrict(req.model.cls as ModelClass, 'view'));
  const paths = await pathsThrough(new Store(db, req.ctx.registry), [{ label: req.model.label, id: port.id as Id }]);
  paths.sort((a, b) => String(a.origin_id).localeCompare(String(b.origin_id)));
  const nodes: Node[] = [];
  for (const p of paths) {
    nodes.push({ label: p.origin_type as string, id: p.origin_id as Id }, ...parseNodes(p.path as string));
    if (p.destination_id) nodes.push({ label: p.destination_type as string, id: p.destination_id as Id });
  }
  const forms = await formsOf(req, nodes.filter((n) => n.label !== CABLE_LABEL));
  const cables = nodes.filter((n) => n.label === CABLE_LABEL).map((n) => n.id);
  const cableForms = await req.nestedMany(Cable, [...new Set(cables)]);
  const formOf = (n: Node): Json => (n.label === CABLE_LABEL ? (cableForms.get(n.id) ?? null) : (forms.get(key(n)) ?? null));
  const body = paths.map((p) => ({
    id: p.id as string,
    origin_type: p.origin_type as string,
    origin: formOf({ label: p.origin_type as string, id: p.origin_id as Id }),
    destination_type: (p.destination_type as string) || null,
    destination: p.destination_id ? formOf({ label: p.destination_type as string, id: p.destination_id as Id }) : null,
    path: parseNodes(p.path as string).map(formOf),
    is_active: Boolean(p.is_active),
    is_split: Boolean(p.is_split),
  }));
  return { status: 200, body };
}

const trace = { trace: { detail: true, GET: { action: 'view' as const, handler: traceView } } };
const pathsAction = { paths: { detail: true, GET: { action: 'view' as const, handler: pathsView } } };

/** `trace/` on every path endpoint of the dcim application, `paths/` on front and rear ports. */
export const cableActions = [
  ...[ConsolePort, ConsoleServerPort, PowerPort, PowerOutlet, Interface, PowerFeed].flatMap((cls) => defineActions(cls, trace)),
  ...[FrontPort, RearPort].flatMap((cls) => defineActions(cls, pathsAction)),
];

/** The same `trace/` handler for path endpoints of other applications (circuit terminations). */
export function traceActionsFor(cls: ModelClass) {
  return defineActions(cls, trace);
}

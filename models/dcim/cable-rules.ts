import { ValidationError, type ModelMeta, type Values, type WriteContext } from '../../framework';
import { VIRTUAL_INTERFACE_TYPES, WIRELESS_INTERFACE_TYPES } from './choices';

/**
 * Which termination models a cable may join (Nautobot's COMPATIBLE_TERMINATION_TYPES), by
 * content-type label. A label whose model is not registered (power feeds before they exist)
 * never matches a cable end, so naming it costs nothing.
 */
export const COMPATIBLE_TERMINATION_TYPES: Readonly<Record<string, readonly string[]>> = {
  'circuits.circuittermination': ['dcim.interface', 'dcim.frontport', 'dcim.rearport', 'circuits.circuittermination'],
  'dcim.consoleport': ['dcim.consoleserverport', 'dcim.frontport', 'dcim.rearport'],
  'dcim.consoleserverport': ['dcim.consoleport', 'dcim.frontport', 'dcim.rearport'],
  'dcim.interface': ['dcim.interface', 'circuits.circuittermination', 'dcim.frontport', 'dcim.rearport'],
  'dcim.frontport': ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.interface', 'dcim.frontport', 'dcim.rearport', 'circuits.circuittermination'],
  'dcim.rearport': ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.interface', 'dcim.frontport', 'dcim.rearport', 'circuits.circuittermination'],
  'dcim.powerport': ['dcim.poweroutlet', 'dcim.powerfeed'],
  'dcim.poweroutlet': ['dcim.powerport'],
  'dcim.powerfeed': ['dcim.powerport'],
};

/** Django 3.2's string form of a content type (`dcim | front port`). */
export function contentTypeText(model: ModelMeta): string {
  return `${model.app.label} | ${model.verboseName}`;
}

/** A termination's string form in messages: a component's `name (label)`, else its display. */
function endText(row: Values): string {
  if (typeof row.name === 'string') return row.label ? `${row.name} (${String(row.label)})` : row.name;
  if (typeof row.term_side === 'string') return `Termination ${row.term_side}`;
  return String(row.id);
}

interface End {
  side: 'a' | 'b';
  model: ModelMeta;
  row: Values;
}

/** What the rules read of an end: not its link tables (tags, VLANs). */
const END_FIELDS = ['type', 'name', 'label', 'term_side', 'positions', 'rear_port', 'provider_network', 'cable'];

/** Loads one end, or fails as Nautobot does for a missing object. */
async function loadEnd(side: 'a' | 'b', values: Values, wc: WriteContext): Promise<End> {
  const label = values[`termination_${side}_type`] as string;
  const model = wc.registry.get(label);
  const [row] = model ? await wc.store.findFields(model, [values[`termination_${side}_id`] as string], END_FIELDS) : [];
  if (!model || !row) throw ValidationError.field(`termination_${side}`, `Invalid ID for type ${label}`);
  return { side, model, row };
}

/** Nautobot's Cable.clean(), in its order; the first failing rule is the answer. */
export async function checkCable(values: Values, wc: WriteContext): Promise<void> {
  const a = await loadEnd('a', values, wc);
  const b = await loadEnd('b', values, wc);
  if (wc.current) {
    for (const side of ['a', 'b'] as const) {
      const changed = ['type', 'id'].some((k) => values[`termination_${side}_${k}`] !== wc.current?.[`termination_${side}_${k}`]);
      if (changed) throw ValidationError.field(`termination_${side}`, 'Cable termination points may not be modified. Delete and recreate the cable instead.');
    }
  }
  for (const end of [a, b]) {
    const type = end.row.type as string;
    if (end.model.label === 'dcim.interface' && (VIRTUAL_INTERFACE_TYPES.includes(type) || WIRELESS_INTERFACE_TYPES.includes(type))) {
      const typeLabel = end.model.field('type')?.opts<{ choices: { label(v: string): string | undefined } }>().choices.label(type) ?? type;
      throw ValidationError.field(`termination_${end.side}_id`, `Cables cannot be terminated to ${typeLabel} interfaces`);
    }
  }
  if (!(COMPATIBLE_TERMINATION_TYPES[a.model.label] ?? []).includes(b.model.label)) {
    throw ValidationError.model(`Incompatible termination types: ${contentTypeText(a.model)} and ${contentTypeText(b.model)}`);
  }
  if (a.model.label === 'dcim.rearport' && b.model.label === 'dcim.rearport') {
    const [n, m] = [a.row.positions as number, b.row.positions as number];
    if (n > 1 && m > 1 && n !== m) {
      throw ValidationError.model(
        `${endText(a.row)} has ${n} position(s) but ${endText(b.row)} has ${m}. Both terminations must have the same number of positions (if greater than one).`,
      );
    }
  }
  if (a.model === b.model && a.row.id === b.row.id) throw ValidationError.model(`Cannot connect ${contentTypeText(a.model)} to itself`);
  for (const [front, rear] of [[a, b], [b, a]]) {
    if (front.model.label === 'dcim.frontport' && rear.model.label === 'dcim.rearport' && front.row.rear_port === rear.row.id) {
      throw ValidationError.model('A front port cannot be connected to it corresponding rear port');
    }
  }
  for (const end of [a, b]) {
    if (end.model.label === 'circuits.circuittermination' && end.row.provider_network) {
      throw ValidationError.field(`termination_${end.side}_id`, 'Circuit terminations attached to a provider network may not be cabled.');
    }
  }
  for (const end of [a, b]) {
    const cable = end.row.cable as string | null | undefined;
    if (cable && cable !== wc.id) throw ValidationError.model(`${endText(end.row)} already has a cable attached (#${cable})`);
  }
  if (values.length !== null && values.length !== undefined && !values.length_unit) {
    throw ValidationError.model('Must specify a unit when setting a cable length');
  }
  // Nautobot's save() blanks a stored unit without a length, unless the body resends it.
  if (!wc.creating && (values.length === null || values.length === undefined) && !wc.sent.has('length_unit')) values.length_unit = '';
}

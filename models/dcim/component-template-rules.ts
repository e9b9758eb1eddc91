import { ValidationError, type ModelMeta, type Values, type WriteContext } from '../../framework';
import { describeComponent } from './component-names';
import { DeviceBayTemplate } from './device-bay-template';

/**
 * Nautobot's template clean() rules: a template may only point at templates of its own device
 * type, and a front port position must exist on its rear port.
 */

/** `allocated_draw` never exceeds `maximum_draw` (power ports and their templates). */
export function checkDraw(values: Values): void {
  const max = values.maximum_draw as number | null | undefined;
  const allocated = values.allocated_draw as number | null | undefined;
  if (max != null && allocated != null && allocated > max) {
    throw ValidationError.field('allocated_draw', `Allocated draw cannot exceed the maximum draw (${max}W).`);
  }
}

/** The referenced template of the same device type, or a model error naming it. */
export async function sameTypeTemplate(wc: WriteContext, values: Values, field: string, message: (name: string) => string): Promise<Values | null> {
  const id = values[field] as string | null | undefined;
  const target = id ? await wc.store.get(wc.model.field(field)?.target as ModelMeta, id) : null;
  if (!target) return null;
  if (target.device_type !== values.device_type) throw ValidationError.model(message(describeComponent(target)));
  return target;
}

/** A front port template's rear port: same device type, and the position within its positions. */
export async function checkRearPortTemplate(values: Values, wc: WriteContext): Promise<void> {
  const rear = await sameTypeTemplate(wc, values, 'rear_port', (rp) => `Rear port (${rp}) must belong to the same device type`);
  if (!rear) return;
  const position = (values.rear_port_position as number | undefined) ?? 1;
  if (position > (rear.positions as number)) {
    throw ValidationError.model(`Invalid rear port position (${position}); rear port ${describeComponent(rear)} has only ${String(rear.positions)} positions`);
  }
}

/** A device type stays a parent while it has device bay templates. */
export async function checkParentRole(values: Values, wc: WriteContext): Promise<void> {
  if (wc.creating || values.subdevice_role === 'parent') return;
  if (await wc.store.exists(DeviceBayTemplate, { device_type: wc.id })) {
    throw ValidationError.field('subdevice_role', 'Must delete all device bay templates associated with this device before declassifying it as a parent device.');
  }
}

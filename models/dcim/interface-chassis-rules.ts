import { ValidationError, displayOf, type Values, type WriteContext } from '../../framework';
import { describeComponent } from './component-names';
import { Device } from './device';
import { sameChassis } from './virtual-chassis-rules';

/**
 * An interface's LAG, parent or bridge is on the interface's own device or on another member of
 * its virtual chassis (Nautobot's Interface.clean).
 */
export async function checkSameDeviceOrChassis(wc: WriteContext, device: string, target: Values, key: string, what: string): Promise<void> {
  if (target.device === device) return;
  const { chassis, shared } = await sameChassis(wc, device, target.device as string);
  if (shared) return;
  const owner = await displayOf(wc, Device, target.device as string);
  const selected = `The selected ${what} (${describeComponent(target)}) belongs to`;
  throw ValidationError.field(
    key,
    chassis ? `${selected} ${owner}, which is not part of virtual chassis ${String(chassis.name)}.` : `${selected} a different device (${owner}).`,
  );
}

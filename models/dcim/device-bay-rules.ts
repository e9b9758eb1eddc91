import { ValidationError, type Values, type WriteContext } from '../../framework';
import { describeComponent } from './component-names';
import { Device } from './device';
import { DeviceBay } from './device-bay';
import { DeviceType } from './device-type';

/**
 * A device sits in one bay at most. Checked before the generic uniqueness check so that the
 * message is Nautobot's, not the unique field's.
 */
export async function checkInstalledOnce(values: Values, wc: WriteContext): Promise<void> {
  if (!values.installed_device) return;
  const [other] = await wc.store.find(DeviceBay, { installed_device: values.installed_device });
  if (other && other.id !== wc.id) {
    throw ValidationError.field('installed_device', `Cannot install the specified device; device is already installed in ${describeComponent(other)}`);
  }
}

/**
 * Nautobot's DeviceBay.clean: only devices of a parent type have bays, and a bay never holds its
 * own device. As in Nautobot 1.6 any other device may be installed: its type's subdevice role and
 * its site are not checked.
 */
export async function checkDeviceBay(values: Values, wc: WriteContext): Promise<void> {
  const device = await wc.store.get(Device, values.device as string);
  const type = device ? await wc.store.get(DeviceType, device.device_type as string) : null;
  if (type && type.subdevice_role !== 'parent') {
    throw ValidationError.model(`This type of device (${String(type.model)}) does not support device bays.`);
  }
  if (values.installed_device && values.installed_device === values.device) {
    throw ValidationError.model('Cannot install a device into itself.');
  }
}

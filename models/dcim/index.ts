import { defineApp } from '../../framework';
import { Device } from './device';
import { DeviceRole } from './device-role';
import { DeviceType } from './device-type';
import { Interface } from './interface';
import { Manufacturer } from './manufacturer';
import { Platform } from './platform';
import { Region } from './region';
import { Site } from './site';
import { COMPONENTS, COMPONENT_TEMPLATES, DEVICE_GROUPS } from './components';
import { deviceActions } from './device.actions';
import { parentDevice } from './parent-device';

export { Region, Site, Manufacturer, DeviceType, DeviceRole, Platform, Device, Interface };

export default defineApp('dcim', [Region, Site, Manufacturer, DeviceType, ...COMPONENT_TEMPLATES, DeviceRole, Platform, Device, ...COMPONENTS, Interface, ...DEVICE_GROUPS], {
  displayName: 'DCIM',
  actions: deviceActions,
  provides: { parent_device: parentDevice },
});

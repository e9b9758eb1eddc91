import { ConsolePort } from './console-port';
import { ConsolePortTemplate } from './console-port-template';
import { ConsoleServerPort } from './console-server-port';
import { ConsoleServerPortTemplate } from './console-server-port-template';
import { DeviceBay } from './device-bay';
import { DeviceBayTemplate } from './device-bay-template';
import { DeviceRedundancyGroup } from './device-redundancy-group';
import { FrontPort } from './front-port';
import { FrontPortTemplate } from './front-port-template';
import { InterfaceRedundancyGroup } from './interface-redundancy-group';
import { InterfaceRedundancyGroupAssociation } from './interface-redundancy-group-association';
import { InterfaceTemplate } from './interface-template';
import { InventoryItem } from './inventory-item';
import { PowerOutlet } from './power-outlet';
import { PowerOutletTemplate } from './power-outlet-template';
import { PowerPort } from './power-port';
import { PowerPortTemplate } from './power-port-template';
import { RearPort } from './rear-port';
import { RearPortTemplate } from './rear-port-template';
import { VirtualChassis } from './virtual-chassis';

/** The component templates of a device type, in Nautobot's order. */
export const COMPONENT_TEMPLATES = [
  ConsolePortTemplate,
  ConsoleServerPortTemplate,
  PowerPortTemplate,
  PowerOutletTemplate,
  InterfaceTemplate,
  FrontPortTemplate,
  RearPortTemplate,
  DeviceBayTemplate,
];

/** The components of a device besides interfaces. */
export const COMPONENTS = [ConsolePort, ConsoleServerPort, PowerPort, PowerOutlet, FrontPort, RearPort, DeviceBay, InventoryItem];

/** Groupings of devices and interfaces: virtual chassis and redundancy groups. */
export const DEVICE_GROUPS = [VirtualChassis, DeviceRedundancyGroup, InterfaceRedundancyGroup, InterfaceRedundancyGroupAssociation];

import { ConsolePort } from './console-port';
import { ConsolePortTemplate } from './console-port-template';
import { ConsoleServerPort } from './console-server-port';
import { ConsoleServerPortTemplate } from './console-server-port-template';
import { DeviceBay } from './device-bay';
import { DeviceBayTemplate } from './device-bay-template';
import { FrontPort } from './front-port';
import { FrontPortTemplate } from './front-port-template';
import { InterfaceTemplate } from './interface-template';
import { InventoryItem } from './inventory-item';
import { PowerOutlet } from './power-outlet';
import { PowerOutletTemplate } from './power-outlet-template';
import { PowerPort } from './power-port';
import { PowerPortTemplate } from './power-port-template';
import { RearPort } from './rear-port';
import { RearPortTemplate } from './rear-port-template';

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

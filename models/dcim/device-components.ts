import type { Id, ModelClass, Values, WriteContext } from '../../framework';
import { ConsolePort } from './console-port';
import { ConsolePortTemplate } from './console-port-template';
import { ConsoleServerPort } from './console-server-port';
import { ConsoleServerPortTemplate } from './console-server-port-template';
import { DeviceBay } from './device-bay';
import { DeviceBayTemplate } from './device-bay-template';
import { FrontPort } from './front-port';
import { FrontPortTemplate } from './front-port-template';
import { Interface } from './interface';
import { InterfaceTemplate } from './interface-template';
import { PowerOutlet } from './power-outlet';
import { PowerOutletTemplate } from './power-outlet-template';
import { PowerPort } from './power-port';
import { PowerPortTemplate } from './power-port-template';
import { RearPort } from './rear-port';
import { RearPortTemplate } from './rear-port-template';

/** The new device's component standing for a template created before (by the template's id), as an attribute reference, or null. */
type Link = (templateId: unknown) => Record<string, unknown> | null;

interface Copy {
  template: ModelClass;
  component: ModelClass;
  /** The component's body besides device, name, label and description. */
  body(template: Values, link: Link): Record<string, unknown>;
}

/**
 * What each template becomes, in Nautobot's order (power ports before the outlets that point at
 * them, rear ports before front ports). Links point at the new device's component of the same
 * name as the referenced template.
 */
const COPIES: readonly Copy[] = [
  { template: ConsolePortTemplate, component: ConsolePort, body: (t) => ({ type: t.type }) },
  { template: ConsoleServerPortTemplate, component: ConsoleServerPort, body: (t) => ({ type: t.type }) },
  { template: PowerPortTemplate, component: PowerPort, body: (t) => ({ type: t.type, maximum_draw: t.maximum_draw, allocated_draw: t.allocated_draw }) },
  {
    template: PowerOutletTemplate,
    component: PowerOutlet,
    body: (t, link) => ({ type: t.type, feed_leg: t.feed_leg, power_port: link(t.power_port) }),
  },
  { template: InterfaceTemplate, component: Interface, body: (t) => ({ type: t.type, mgmt_only: t.mgmt_only, status: 'active', enabled: true }) },
  { template: RearPortTemplate, component: RearPort, body: (t) => ({ type: t.type, positions: t.positions }) },
  {
    template: FrontPortTemplate,
    component: FrontPort,
    body: (t, link) => ({ type: t.type, rear_port: link(t.rear_port), rear_port_position: t.rear_port_position }),
  },
  { template: DeviceBayTemplate, component: DeviceBay, body: () => ({}) },
];

/**
 * Creates a new device's components from its type's templates, in the device's transaction and
 * through the components' own rules, without change records or webhooks (as Nautobot bulk-inserts
 * them). Only a new device gets them: later changes to the templates or to the device's type
 * change no existing device.
 */
export async function instantiateComponents(device: Values, wc: WriteContext): Promise<void> {
  const names = new Map<Id, string>();
  const link: Link = (templateId) => {
    const name = templateId ? names.get(templateId as Id) : undefined;
    return name === undefined ? null : { device: device.id, name };
  };
  for (const copy of COPIES) {
    const templates = await wc.store.find(copy.template, { device_type: device.device_type });
    for (const t of templates) {
      await wc.create(
        copy.component,
        { device: device.id, name: t.name, label: t.label, description: t.description, ...copy.body(t, link) },
        { unlogged: true },
      );
      names.set(t.id as Id, t.name as string);
    }
  }
}

import { ActionRequest, Store, and, ormFilter, type ExtraRoute, type Id, type Registry } from '../../framework';
import { CablePath } from './cable-path';
import { Device } from './device';
import { Interface } from './interface';

const MISSING = { detail: 'Request must include "peer_device" and "peer_interface" filters.' };

/**
 * `/api/dcim/connected-device/?peer_device=&peer_interface=`: the device at the far end of the
 * stored path of a neighbour's interface, in its full form without `config_context`; an empty
 * 200 when the path has no interface at its end.
 */
export function connectedDeviceRoute(registry: Registry): ExtraRoute {
  return {
    path: '/dcim/connected-device/',
    auth: 'authenticated',
    methods: {
      GET: async (ctx, args) => {
        const peerDevice = ctx.query.get('peer_device')?.[0] ?? '';
        const peerInterface = ctx.query.get('peer_interface')?.[0] ?? '';
        if (!peerDevice || !peerInterface) return { status: 400, body: MISSING };
        const ifaceModel = registry.forClass(Interface);
        const req = new ActionRequest(ctx, args, ifaceModel);
        const restrict = await req.restrict(Interface, 'view');
        const store = new Store(ctx.db.reader, registry);
        const [iface] = await store.find(ifaceModel, and([restrict, ormFilter(ifaceModel, { device__name: peerDevice, name: peerInterface })]));
        if (!iface) return { status: 404, body: { detail: 'Not found.' } };
        const [path] = await store.find(CablePath, { origin_type: ifaceModel.label, origin_id: iface.id as Id });
        if (!path || path.destination_type !== ifaceModel.label || !path.destination_id) return { status: 200 };
        const destination = await store.get(ifaceModel, path.destination_id as Id);
        if (!destination) return { status: 200 };
        const device = (await req.render(Device, [destination.device as Id], false)) as Record<string, unknown>;
        delete device.config_context;
        return { status: 200, body: device };
      },
    },
  };
}

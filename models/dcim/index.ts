import { defineApp } from '../../framework';
import { Device } from './device';
import { DeviceRole } from './device-role';
import { DeviceType } from './device-type';
import { Interface } from './interface';
import { Manufacturer } from './manufacturer';
import { Platform } from './platform';
import { Region } from './region';
import { Site } from './site';
import { Location } from './location';
import { LocationType } from './location-type';
import { Rack } from './rack';
import { RackGroup } from './rack-group';
import { RackReservation } from './rack-reservation';
import { RackRole } from './rack-role';
import { rackActions } from './rack.actions';
import { COMPONENTS, COMPONENT_TEMPLATES, DEVICE_GROUPS } from './components';
import { deviceActions } from './device.actions';
import { parentDevice } from './parent-device';
import { PowerPanel } from './power-panel';
import { PowerFeed } from './power-feed';
import { Cable } from './cable';
import { cablePeer, cablePeerType, connectedEndpoint, connectedEndpointReachable, connectedEndpointType } from './cable-ends';
import { CablePath } from './cable-path';
import { CablePathNode } from './cable-path-node';
import { cableActions } from './cable.actions';

export { Region, Site, Manufacturer, DeviceType, DeviceRole, Platform, Device, Interface };
export { Cable };
export { LocationType, Location, RackGroup, RackRole, Rack, RackReservation, PowerPanel, PowerFeed };

export default defineApp(
  'dcim',
  [Region, Site, LocationType, Location, RackGroup, RackRole, Rack, RackReservation, Manufacturer, DeviceType, ...COMPONENT_TEMPLATES, DeviceRole, Platform, Device, Cable, CablePath, CablePathNode, ...COMPONENTS, Interface, ...DEVICE_GROUPS, PowerPanel, PowerFeed],
  {
    displayName: 'DCIM',
    actions: [...rackActions, ...deviceActions, ...cableActions],
    provides: { parent_device: parentDevice, cable_peer: cablePeer, cable_peer_type: cablePeerType,
      connected_endpoint: connectedEndpoint, connected_endpoint_type: connectedEndpointType, connected_endpoint_reachable: connectedEndpointReachable,
    },
  },
);

import { defineApp } from '../../framework';
import { Aggregate } from './aggregate';
import { IPAddress } from './ip-address';
import { Prefix } from './prefix';
import { RIR } from './rir';
import { Role } from './role';
import { RouteTarget } from './route-target';
import { Service } from './service';
import { VLAN } from './vlan';
import { VLANGroup } from './vlan-group';
import { VRF } from './vrf';
import { prefixActions } from './prefix.actions';

export { Aggregate, IPAddress, Prefix, RIR, Role, RouteTarget, VLAN, Service, VLANGroup, VRF };

export default defineApp('ipam', [VRF, RouteTarget, RIR, Aggregate, Role, Prefix, IPAddress, VLANGroup, VLAN, Service], { displayName: 'IPAM', actions: prefixActions });

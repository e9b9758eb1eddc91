import { defineApp } from '../../framework';
import { ClusterType } from './cluster-type';
import { ClusterGroup } from './cluster-group';
import { Cluster } from './cluster';
import { VirtualMachine } from './virtual-machine';
import { VMInterface } from './vm-interface';

export { ClusterType, ClusterGroup, Cluster, VirtualMachine, VMInterface };

export default defineApp('virtualization', [ClusterType, ClusterGroup, Cluster, VirtualMachine, VMInterface]);

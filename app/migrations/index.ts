import { AddSecrets1795823090649 } from './1795823090649-add-secrets';
import { AddJobWorkerBeats1795990000001 } from './1795990000001-add-job-worker-beats';
import { AddGitRepositories1795990000002 } from './1795990000002-add-git-repositories';
import { AddImageAttachments1795823528573 } from './1795823528573-add-image-attachments';
import { Initial1795431639398 } from './1795431639398-initial';
import { AddIpam1795433612091 } from './1795433612091-add-ipam';
import { AddDcimVirtualization1795434979882 } from './1795434979882-add-dcim-virtualization';
import { AddGroupsPermissionsSessions1795435276251 } from './1795435276251-add-groups-permissions-sessions';
import { AddCustomFieldsRelationships1795437147956 } from './1795437147956-add-custom-fields-relationships';
import { IpAddressAssignment1795437474431 } from './1795437474431-ip-address-assignment';
import { PrimaryIps1795437838425 } from './1795437838425-primary-ips';
import { ServicesInterfaceVlans1795444114527 } from './1795444114527-services-interface-vlans';
import { AddChangeLogWebhooks1795444218792 } from './1795444218792-add-change-log-webhooks';
import { AddConfigContextsNotes1795445362557 } from './1795445362557-add-config-contexts-notes';
import { AddCircuits1795582292995 } from './1795582292995-add-circuits';
import { AddDeviceComponents1795582386597 } from './1795582386597-add-device-components';
import { AddLocationsRacks1795582534609 } from './1795582534609-add-locations-racks';
import { AddGraphqlQueries1795582928330 } from './1795582928330-add-graphql-queries';
import { AddVirtualChassisRedundancyGroups1795582948759 } from './1795582948759-add-virtual-chassis-redundancy-groups';
import { AddJobs1795583123341 } from './1795583123341-add-jobs';
import { MysqlLongText1795584295650 } from './1795584295650-mysql-long-text';
import { AddJobHooksButtons1795584669801 } from './1795584669801-add-job-hooks-buttons';
import { CircuitTerminationLocation1795585060577 } from './1795585060577-circuit-termination-location';
import { PowerPanelsAndFeeds1795585799065 } from './1795585799065-power-panels-and-feeds';
import { AddCables1795586519429 } from './1795586519429-add-cables';
import { AddCablePaths1795587279078 } from './1795587279078-add-cable-paths';
import { PowerFeedCable1795588255744 } from './1795588255744-power-feed-cable';
import { AddObjectVersions1795821578128 } from './1795821578128-add-object-versions';
import { AddDynamicGroups1795823095195 } from './1795823095195-add-dynamic-groups';
import { ConfigContextDynamicGroups1795823946647 } from './1795823946647-config-context-dynamic-groups';
import { CacheGenerations1795990000000 } from './1795990000000-cache-generations';
import { DeviceOrderIndex1795990000003 } from './1795990000003-device-order-index';
import { CablePathNodes1795990000004 } from './1795990000004-cable-path-nodes';
import { CablePathDestinationIndex1795990000005 } from './1795990000005-cable-path-destination-index';
import { DeviceOrderIndexBytewise1795990000006 } from './1795990000006-device-order-index-bytewise';
import { TreeDisplay1795990000007 } from './1795990000007-tree-display';
/** Core schema migrations, oldest first. */
export const CORE_MIGRATIONS: Function[] = [Initial1795431639398,
  AddIpam1795433612091,
  AddDcimVirtualization1795434979882,
  AddGroupsPermissionsSessions1795435276251,
  AddCustomFieldsRelationships1795437147956,
  IpAddressAssignment1795437474431,
  PrimaryIps1795437838425,
  ServicesInterfaceVlans1795444114527,
  AddChangeLogWebhooks1795444218792,
  AddConfigContextsNotes1795445362557,
  AddCircuits1795582292995,
  AddDeviceComponents1795582386597,
  AddLocationsRacks1795582534609,
  AddGraphqlQueries1795582928330,
  AddVirtualChassisRedundancyGroups1795582948759,
  AddJobs1795583123341,
  MysqlLongText1795584295650,
  AddJobHooksButtons1795584669801,
  CircuitTerminationLocation1795585060577,
  PowerPanelsAndFeeds1795585799065,
  AddCables1795586519429,
  AddCablePaths1795587279078,
  PowerFeedCable1795588255744,
  AddObjectVersions1795821578128,
  AddSecrets1795823090649,
  AddDynamicGroups1795823095195,
  AddImageAttachments1795823528573,
  ConfigContextDynamicGroups1795823946647,
  CacheGenerations1795990000000,
  AddJobWorkerBeats1795990000001,
  AddGitRepositories1795990000002,
  DeviceOrderIndex1795990000003,
  CablePathNodes1795990000004,
  CablePathDestinationIndex1795990000005,
  DeviceOrderIndexBytewise1795990000006,
  TreeDisplay1795990000007,
];

import { AddJobHooksButtons1795584669801 } from './1795584669801-add-job-hooks-buttons';
import { AddJobs1795583123341 } from './1795583123341-add-jobs';
import { AddChangeLogWebhooks1795444218792 } from './1795444218792-add-change-log-webhooks';
import { ServicesInterfaceVlans1795444114527 } from './1795444114527-services-interface-vlans';
import { AddConfigContextsNotes1795445362557 } from './1795445362557-add-config-contexts-notes';
import { PrimaryIps1795437838425 } from './1795437838425-primary-ips';
import { IpAddressAssignment1795437474431 } from './1795437474431-ip-address-assignment';
import { AddCustomFieldsRelationships1795437147956 } from './1795437147956-add-custom-fields-relationships';
import { AddGroupsPermissionsSessions1795435276251 } from './1795435276251-add-groups-permissions-sessions';
import { AddDcimVirtualization1795434979882 } from './1795434979882-add-dcim-virtualization';
import { AddIpam1795433612091 } from './1795433612091-add-ipam';
import { Initial1795431639398 } from './1795431639398-initial';
/** Core schema migrations, oldest first. */
export const CORE_MIGRATIONS: Function[] = [Initial1795431639398,
  AddIpam1795433612091,
  AddDcimVirtualization1795434979882,
  AddGroupsPermissionsSessions1795435276251,
  AddCustomFieldsRelationships1795437147956,
  IpAddressAssignment1795437474431,
  PrimaryIps1795437838425, ServicesInterfaceVlans1795444114527, AddChangeLogWebhooks1795444218792, AddConfigContextsNotes1795445362557, AddJobs1795583123341, AddJobHooksButtons1795584669801];

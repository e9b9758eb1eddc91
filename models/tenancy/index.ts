import { defineApp } from '../../framework';
import { TenantGroup } from './tenant-group';
import { Tenant } from './tenant';

export { TenantGroup, Tenant };

export default defineApp('tenancy', [TenantGroup, Tenant]);

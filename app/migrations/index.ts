import { AddDcimVirtualization1795434979882 } from './1795434979882-add-dcim-virtualization';
import { Initial1795431639398 } from './1795431639398-initial';
/** Core schema migrations, oldest first. */
export const CORE_MIGRATIONS: Function[] = [Initial1795431639398, AddDcimVirtualization1795434979882];

import { AddCustomFieldsRelationships1795437147956 } from './1795437147956-add-custom-fields-relationships';
import { AddIpam1795433612091 } from './1795433612091-add-ipam';
import { Initial1795431639398 } from './1795431639398-initial';
/** Core schema migrations, oldest first. */
export const CORE_MIGRATIONS: Function[] = [Initial1795431639398, AddIpam1795433612091, AddCustomFieldsRelationships1795437147956];

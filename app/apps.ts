import type { AppDefinition } from '../framework';
import circuits from '../models/circuits';
import dcim from '../models/dcim';
import extras from '../models/extras';
import ipam from '../models/ipam';
import tenancy from '../models/tenancy';
import users from '../models/users';
import virtualization from '../models/virtualization';

/** The core applications, in the order /api/ lists them. */
export const CORE_APPS: AppDefinition[] = [circuits, dcim, extras, ipam, tenancy, users, virtualization];

import { defineApp } from '../../framework';
import { Group } from './group';
import { Session } from './session';
import { ObjectPermission } from './object-permission';
import { Token } from './token';
import { User } from './user';

export { User, Group, Token, ObjectPermission };
export { usersAuthBackend } from './auth';
export { objectPermissionEngine } from './permissions';
export { userConfigRoute } from './config';

export default defineApp('users', [User, Group, Token, ObjectPermission, Session]);

import { defineApp } from '../../framework';
import { Token } from './token';
import { User } from './user';

export { User, Token };
export { usersAuthBackend } from './auth';

export default defineApp('users', [User, Token]);

import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Store,
  decoyHash,
  verifyPassword,
  type AuthBackend,
  type AuthUser,
  type Executor,
  type Registry,
} from '../../framework';
import { Session } from './session';
import { Token } from './token';
import { User } from './user';

/** Browser sessions last two weeks, as Django's do by default. */
const SESSION_SECONDS = 14 * 24 * 3600;

const USER_COLUMNS = ['id', 'username', 'is_superuser', 'is_staff', 'is_active'];

function toUser(row: unknown[]): AuthUser {
  const flag = (v: unknown) => v === true || v === 1 || v === '1';
  return { id: row[0] as string, username: String(row[1]), isSuperuser: flag(row[2]), isStaff: flag(row[3]), isActive: flag(row[4]) };
}

/** Tokens and passwords of the users application, for the framework's authentication step. */
export function usersAuthBackend(registry: Registry): AuthBackend {
  const users = registry.forClass(User).table;
  const tokens = registry.forClass(Token).table;
  return {
    async findToken(key: string, db: Executor) {
      const q = db.dialect.quote;
      const normalised = key.toLowerCase();
      const rows = await db.rows(
        `SELECT ${USER_COLUMNS.map((c) => `${q('u')}.${q(c)}`).join(', ')}, ${q('t')}.${q('id')}, ${q('t')}.${q('key')}, ${q('t')}.${q('write_enabled')}, ${q('t')}.${q('expires')} ` +
          `FROM ${q(tokens)} ${q('t')} JOIN ${q(users)} ${q('u')} ON ${q('u')}.${q('id')} = ${q('t')}.${q('user_id')} WHERE ${q('t')}.${q('key')} = ${db.dialect.placeholder(1)}`,
        [normalised],
      );
      const row = rows[0];
      if (!row) return null;
      const stored = Buffer.from(String(row[6]));
      const given = Buffer.from(normalised);
      if (stored.length !== given.length || !timingSafeEqual(stored, given)) return null;
      const expires = row[8] === null || row[8] === undefined ? null : new Date(`${String(row[8]).replace(' ', 'T').replace(/Z?$/, 'Z')}`);
      return {
        user: toUser(row),
        token: { id: row[5] as string, key: String(row[6]), writeEnabled: row[7] === true || row[7] === 1 || row[7] === '1', expires },
      };
    },
    async checkPassword(username: string, password: string, db: Executor) {
      const q = db.dialect.quote;
      const rows = await db.rows(
        `SELECT ${USER_COLUMNS.map((c) => q(c)).join(', ')}, ${q('password')} FROM ${q(users)} WHERE ${q('username')} = ${db.dialect.placeholder(1)}`,
        [username],
      );
      const row = rows[0];
      // The same slow check runs whether or not the user exists.
      const ok = await verifyPassword(password, row ? String(row[5]) : await decoyHash());
      if (!row || !ok) return null;
      const user = toUser(row);
      return user.isActive ? user : null;
    },
    async findSession(key: string, db: Executor) {
      const [session] = await new Store(db).find(registry.forClass(Session), { key, expires__gt: new Date().toISOString() });
      if (!session) return null;
      const [user] = await new Store(db).find(registry.forClass(User), { id: session.user });
      if (!user) return null;
      return {
        user: { id: user.id as string, username: String(user.username), isSuperuser: user.is_superuser === true, isStaff: user.is_staff === true, isActive: user.is_active === true },
        csrf: String(session.csrf),
      };
    },
    async createSession(user: AuthUser, db: Executor) {
      const key = randomBytes(32).toString('hex');
      const csrf = randomBytes(32).toString('hex');
      const expires = new Date(Date.now() + SESSION_SECONDS * 1000);
      await new Store(db).insert(registry.forClass(Session), { key, csrf, user: user.id, expires });
      return { key, csrf, expires };
    },
    async deleteSession(key: string, db: Executor) {
      await new Store(db).delete(registry.forClass(Session), { key });
    },
  };
}

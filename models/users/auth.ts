import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Store,
  CachedConfig,
  cachedConfig,
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

const USER_FIELDS = ['id', 'username', 'is_superuser', 'is_staff', 'is_active'] as const;

/** Stored booleans come back as true, 1 or '1' depending on the database. */
function flag(v: unknown): boolean {
  return v === true || v === 1 || v === '1';
}

function toUser(row: Record<string, unknown>, prefix = ''): AuthUser {
  const at = (name: (typeof USER_FIELDS)[number]) => row[prefix + name];
  return { id: at('id') as string, username: String(at('username')), isSuperuser: flag(at('is_superuser')), isStaff: flag(at('is_staff')), isActive: flag(at('is_active')) };
}

type TokenMatch = NonNullable<Awaited<ReturnType<AuthBackend['findToken']>>>;

/** API tokens with their users' flags, by key. */
const TOKENS_CACHE = new CachedConfig<Map<string, TokenMatch>>('users.tokens', ['users_token', 'users_user']);

/** The token with its user's flags, in one statement. */
async function lookUpToken(key: string, db: Executor, registry: Registry): Promise<TokenMatch | null> {
  const [row] = await new Store(db, registry).pluck(Token, { key }, [
    'id', 'key', 'write_enabled', 'expires', ...USER_FIELDS.map((f) => `user.${f}`),
  ]);
  if (!row) return null;
  // Keys match exactly, compared in constant time.
  const stored = Buffer.from(String(row.key));
  const given = Buffer.from(key);
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return null;
  const expires = row.expires === null || row.expires === undefined ? null : new Date(`${String(row.expires).replace(' ', 'T').replace(/Z?$/, 'Z')}`);
  return {
    user: toUser(row, 'user.'),
    token: { id: row.id as string, key: String(row.key), writeEnabled: flag(row.write_enabled), expires },
  };
}

/** Tokens and passwords of the users application, for the framework's authentication step. */
export function usersAuthBackend(registry: Registry): AuthBackend {
  return {
    async findToken(key: string, db: Executor) {
      // Tokens found are kept between requests until a token or user changes (see CachedConfig);
      // unknown keys are not, so a token created on another instance works at once.
      const known = await cachedConfig(db, TOKENS_CACHE, async () => new Map<string, TokenMatch>());
      const hit = known.get(key);
      if (hit) return hit;
      const found = await lookUpToken(key, db, registry);
      if (found) known.set(key, found);
      return found;
    },
    async checkPassword(username: string, password: string, db: Executor) {
      const [row] = await new Store(db, registry).pluck(User, { username }, [...USER_FIELDS, 'password']);
      // The same slow check runs whether or not the user exists.
      const ok = await verifyPassword(password, row ? String(row.password) : await decoyHash());
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

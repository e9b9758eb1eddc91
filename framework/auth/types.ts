import type { Executor } from '../store/executor';
import type { Id } from '../query/id';

export interface AuthUser {
  id: Id;
  username: string;
  isSuperuser: boolean;
  isStaff: boolean;
  isActive: boolean;
}

export interface TokenInfo {
  id: Id;
  key: string;
  writeEnabled: boolean;
  expires: Date | null;
}

/**
 * Looks users and tokens up; supplied by the users application so the framework does not depend
 * on its models.
 */
export interface AuthBackend {
  /** The token with this key and its user, or null. */
  findToken(key: string, db: Executor): Promise<{ token: TokenInfo; user: AuthUser } | null>;
  /** The active user with these credentials, or null (same cost whether or not the user exists). */
  checkPassword(username: string, password: string, db: Executor): Promise<AuthUser | null>;
  /** The user of a browser session, or null. */
  findSession?(key: string, db: Executor): Promise<{ user: AuthUser; csrf: string } | null>;
  /** Opens a session for a user who just logged in. */
  createSession?(user: AuthUser, db: Executor): Promise<{ key: string; csrf: string; expires: Date }>;
  /** Ends a session (logout). */
  deleteSession?(key: string, db: Executor): Promise<void>;
}

export type Action = 'view' | 'add' | 'change' | 'delete' | 'run' | 'approve';

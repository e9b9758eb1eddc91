import { isIP } from 'node:net';
import * as path from 'node:path';
import { DataKey, type Id, type Registry } from '../../framework';

/** What a Git repository may provide, with the names Nautobot's sync logs use, in its refresh order. */
export const GIT_CONTENTS = [
  { id: 'extras.configcontextschema', name: 'config context schemas' },
  { id: 'extras.configcontext', name: 'config contexts' },
  { id: 'extras.job', name: 'jobs' },
  { id: 'extras.exporttemplate', name: 'export templates' },
] as const;

export const CONTENT_IDS: readonly string[] = GIT_CONTENTS.map((c) => c.id);

/** Kept on update when sent as the token (Nautobot's TOKEN_PLACEHOLDER). */
export const TOKEN_PLACEHOLDER = '********';

/** The server's Git settings (NETINV_GIT_*), per registry as other caches derived from it. */
export interface GitSettings {
  /** Directory holding one local copy per repository. */
  readonly root: string;
  /** Seconds one `git` command may take. */
  readonly timeoutSeconds: number;
  /** `file://` URLs and absolute paths are accepted as remote URLs. */
  readonly allowLocal: boolean;
}

const DEFAULT_SETTINGS: GitSettings = { root: './data/git', timeoutSeconds: 300, allowLocal: false };
const settings = new WeakMap<Registry, GitSettings>();

export function setGitSettings(registry: Registry, value: GitSettings): void {
  settings.set(registry, Object.freeze({ ...value }));
}

export function gitSettingsOf(registry: Registry): GitSettings {
  return settings.get(registry) ?? DEFAULT_SETTINGS;
}

/** The local copy of a repository: `<root>/<repository id>` (the id never changes, the slug may). */
export function repositoryDirectory(registry: Registry, id: Id): string {
  return path.resolve(gitSettingsOf(registry).root, String(id));
}

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const LABEL = /^[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?$/i;
const TLD = /^(?:[a-z\u00a1-\uffff-]{2,63}|xn--[a-z0-9]{1,59})$/i;

/** Django's URLValidator host rule: an IPv4 or bracketed IPv6 address, `localhost`, or a name with a top-level domain. */
function validHost(host: string): boolean {
  if (host.startsWith('[') && host.endsWith(']')) return isIP(host.slice(1, -1)) === 6;
  if (IPV4.test(host) || host.toLowerCase() === 'localhost') return true;
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length < 2) return false;
  const tld = labels.pop() as string;
  return TLD.test(tld) && !tld.startsWith('-') && !tld.endsWith('-') && labels.every((l) => LABEL.test(l));
}

const REMOTE = /^(https?):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?(\[[^\]\s/]+\]|[^\s:/?#]+)(?::(\d{1,5}))?(?:[/?#]\S*)?$/i;

/**
 * Whether `url` may be a remote URL: http(s) as Django's URLValidator accepts them (Nautobot's
 * rule), and with `allowLocal` also `file://` URLs and absolute paths on the server.
 */
export function acceptedRemoteUrl(url: string, allowLocal: boolean): boolean {
  if (allowLocal && (/^file:\/\/\/\S*$/.test(url) || (path.isAbsolute(url) && !/[\0\n\r]/.test(url)))) return true;
  const m = REMOTE.exec(url);
  if (!m) return false;
  if (m[3] !== undefined && Number(m[3]) > 65535) return false;
  return validHost(m[2]);
}

/** Transactions whose deleted repositories leave local copies to remove once they commit. */
export const REMOVED_COPIES = new DataKey<string[]>('git:removed-copies');

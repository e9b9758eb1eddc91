import type { ExtraRoute } from '../actions/declared-routes';
import type { LoadedPlugin } from './loader';

/**
 * `/api/plugins/installed-plugins/`: staff only, a bare array with Nautobot's keys, including the
 * misspelt `verison` that clients may read.
 */
export function installedPluginsRoute(plugins: readonly LoadedPlugin[]): ExtraRoute {
  const body = plugins.map(({ definition: d, package: pkg }) => ({
    name: d.verbose_name,
    package: pkg,
    author: d.author,
    author_email: d.author_email,
    description: d.description,
    verison: d.version,
    version: d.version,
  }));
  return {
    path: '/plugins/installed-plugins/',
    auth: 'staff',
    documented: false,
    methods: { GET: async () => ({ status: 200, body }) },
  };
}

import type { Registry } from '../framework';
import type { LoadedPlugin } from '../framework/plugins';
import type { ExtraRoute } from '../framework/router/api';
import type { Config } from './config';

/** `/api/status/`: versions and applications, in Nautobot's hyphenated keys. */
export function statusRoute(registry: Registry, config: Readonly<Config>, plugins: readonly LoadedPlugin[] = []): ExtraRoute {
  return {
    path: '/status/',
    auth: 'authenticated',
    methods: {
      GET: async () => ({
        status: 200,
        body: {
          'django-version': null,
          'installed-apps': Object.fromEntries(registry.apps.map((a) => [`netinv.${a.label}`, null]).sort()),
          'nautobot-version': '1.6.32',
          'netinv-version': config.version,
          'node-version': process.versions.node,
          plugins: Object.fromEntries(plugins.map((p) => [p.definition.name, p.definition.version])),
          'python-version': null,
          'rq-workers-running': 0,
          'celery-workers-running': 0,
        },
      }),
    },
  };
}

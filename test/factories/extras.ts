import { randomUUID } from 'node:crypto';
import type { Factory } from './index';

/** A 1×1 transparent PNG. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Content types handed out so far by the content-type factory's seed. */
let contentTypesSeeded = 0;

/**
 * Definitions target regions only: the contract suite tests dcim.region before any extras model,
 * so the fields and relationships made here never change what later models' tests expect.
 */
export const extrasDefinitionFactories: Record<string, Factory> = {
  'extras.customfield': {
    build: ({ n }) => ({ name: `field_${n}`, type: 'text', content_types: ['dcim.region'], description: 'field' }),
    change: () => ({ description: 'changed', weight: 200 }),
    // Name, slug and type cannot change once created.
    replace: (_ctx, current) => ({
      name: current.name,
      slug: current.slug,
      label: 'Replaced',
      type: (current.type as { value: string }).value,
      content_types: ['dcim.region'],
    }),
  },
  'extras.customfieldchoice': {
    build: async ({ n, make }) => ({ field: await make('extras.customfield', { type: 'select' }), value: `choice-${n}` }),
    change: () => ({ weight: 200 }),
  },
  'extras.relationship': {
    build: ({ n }) => ({ name: `Relationship ${n}`, type: 'many-to-many', source_type: 'dcim.region', destination_type: 'dcim.region' }),
    change: () => ({ description: 'changed', source_label: 'peers' }),
  },
  'extras.relationshipassociation': {
    build: async ({ make }) => ({
      relationship: await make('extras.relationship'),
      source_type: 'dcim.region',
      source_id: await make('dcim.region'),
      destination_type: 'dcim.region',
      destination_id: await make('dcim.region'),
    }),
    // The ends are not foreign keys: any UUID may stand at either end.
    change: () => ({ source_id: randomUUID() }),
    derived: ['display'],
  },
  'extras.computedfield': {
    build: ({ n }) => ({ content_type: 'dcim.region', label: `Computed ${n}`, template: '{{ obj.name | upper }}' }),
    change: () => ({ fallback_value: 'changed' }),
  },
  'extras.webhook': {
    // Custom field choices are written by no model tested after this one: the webhooks made here
    // queue no deliveries for the rest of the suite.
    build: ({ n }) => ({
      name: `Webhook ${n}`,
      content_types: ['extras.customfieldchoice'],
      type_create: true,
      payload_url: `http://127.0.0.1:9/hooks/${n}`,
    }),
    change: () => ({ body_template: '{{ event }}', http_content_type: 'text/plain' }),
  },
  'extras.objectchange': {
    build: () => ({}),
    change: () => ({}),
    // Change records are written by the server: creating a region leaves one.
    seed: async ({ app, make }) => {
      const region = await make('dcim.region');
      const res = await app.get(`/api/extras/object-changes/?changed_object_id=${region}`);
      if (res.status !== 200 || res.body.count !== 1) throw new Error(`no change record for region ${region}: ${JSON.stringify(res.body)}`);
      return res.body.results[0].id as string;
    },
  },
  // Uploaded as multipart forms only (JSON cannot carry the file): the suite seeds them and skips its JSON writes.
  'extras.imageattachment': {
    build: () => ({}),
    change: () => ({}),
    seed: async ({ app, n, make }) => {
      const site = await make('dcim.site');
      const res = await app
        .raw()
        .post('/api/extras/image-attachments/')
        .set('Authorization', `Token ${app.token}`)
        .set('Accept', 'application/json')
        .field('content_type', 'dcim.site')
        .field('object_id', site)
        .field('name', `Image ${n}`)
        .attach('image', TINY_PNG, { filename: 'tiny.png', contentType: 'image/png' });
      if (res.status !== 201) throw new Error(`uploading an image failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
  },
  'contenttypes.contenttype': {
    build: () => ({}),
    change: () => ({}),
    // Content types are filled by the server at start: existing rows stand in, a different one each time.
    seed: async ({ app }) => {
      const res = await app.get(`/api/extras/content-types/?limit=1&offset=${contentTypesSeeded++}`);
      if (res.status !== 200 || !res.body.results.length) throw new Error(`no content types: ${JSON.stringify(res.body)}`);
      return String(res.body.results[0].id);
    },
  },
  'extras.configcontextschema': {
    build: ({ n }) => ({ name: `Schema ${n}`, data_schema: { type: 'object', properties: { ntp: { type: 'object' } } } }),
    change: () => ({ description: 'changed' }),
  },
  // Inactive and limited to a region of their own, so they never reach other tests' devices.
  'extras.configcontext': {
    build: async ({ n, make }) => ({ name: `Context ${n}`, is_active: false, regions: [await make('dcim.region')], data: { n } }),
    change: () => ({ weight: 500, description: 'changed' }),
  },
  'extras.note': {
    build: async ({ n, make }) => ({ assigned_object_type: 'dcim.region', assigned_object_id: await make('dcim.region'), note: `Note ${n}` }),
    change: () => ({ note: 'changed' }),
  },
  'extras.customlink': {
    build: ({ n }) => ({ name: `Link ${n}`, content_type: 'dcim.region', text: 'Docs', target_url: 'https://docs.example/{{ obj.slug }}', new_window: false }),
    change: () => ({ weight: 200, group_name: 'changed' }),
  },
  'extras.graphqlquery': {
    build: ({ n }) => ({ name: `Query ${n}`, query: 'query ($name: [String]) { regions(name: $name) { name } }' }),
    change: () => ({ query: 'query ($limit: Int = 10) { regions(limit: $limit) { slug } }' }),
    // Recomputed from the query's variable definitions on every save.
    derived: ['variables'],
  },
  'extras.secret': {
    build: ({ n }) => ({ name: `Secret ${n}`, provider: 'environment-variable', parameters: { variable: `NETINV_FACTORY_SECRET_${n}` } }),
    change: () => ({ description: 'changed', provider: 'text-file', parameters: { path: '/run/secrets/netinv' } }),
  },
  'extras.secretsgroup': {
    build: ({ n }) => ({ name: `Secrets group ${n}` }),
    change: () => ({ description: 'changed' }),
  },
  'extras.secretsgroupassociation': {
    build: async ({ make }) => ({ group: await make('extras.secretsgroup'), secret: await make('extras.secret'), access_type: 'SSH', secret_type: 'password' }),
    change: () => ({ access_type: 'HTTP(S)', secret_type: 'token' }),
    derived: ['display'],
  },
  // Every save queues a sync; the discard port on the loopback refuses it at once, offline.
  'extras.gitrepository': {
    build: ({ n }) => ({ name: `Repository ${n}`, remote_url: `http://127.0.0.1:9/repository-${n}.git`, provided_contents: ['extras.configcontext'] }),
    change: () => ({ branch: 'develop', provided_contents: ['extras.exporttemplate'] }),
  },
  // Device groups whose filter names no device: their member lists stay empty.
  'extras.dynamicgroup': {
    build: ({ n }) => ({ name: `Group ${n}`, content_type: 'dcim.device', filter: { name: [`group-${n}-device`] } }),
    change: () => ({ description: 'changed', filter: { status: ['active'] } }),
  },
  'extras.dynamicgroupmembership': {
    build: async ({ n, make }) => ({
      parent_group: await make('extras.dynamicgroup', { filter: {} }),
      group: await make('extras.dynamicgroup'),
      operator: 'union',
      weight: n % 32000,
    }),
    change: () => ({ operator: 'intersection', weight: 500 }),
    derived: ['display'],
  },
  'extras.exporttemplate': {
    build: ({ n }) => ({ content_type: 'dcim.region', name: `Export ${n}`, template_code: '{% for r in queryset %}{{ r.name }}\n{% endfor %}' }),
    change: () => ({ mime_type: 'text/csv', file_extension: 'csv' }),
    derived: [],
  },
};

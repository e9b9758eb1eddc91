/**
 * `npm run gen:docs`: the Markdown reference written from the registry. The committed
 * docs/api-reference.md is what the generator writes now (so it cannot go stale), and its content
 * agrees with the registry: every routed model's endpoints, each field of a sample model with its
 * type, required and read-only flags, the choices of a choice field, every filter of a model.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../app/config';
import { registryWith } from '../../app/database';
import { openApiSources } from '../../app/routes';
import { filterSetFor } from '../../framework/filterset/filterset';
import { buildReference } from '../../framework/openapi';
import type { ModelMeta } from '../../framework/metadata/model-meta';

const ROOT = path.resolve(__dirname, '../..');
const COMMITTED = path.join(ROOT, 'docs', 'api-reference.md');
const registry = registryWith([]);
const text = buildReference(openApiSources(registry, loadConfig(), []));

/** The lines of a model's section, from its heading to the next model's. */
function section(model: ModelMeta): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l, i) => l === `### ${model.title}` && lines[i + 2] === `Model \`${model.label}\`.`);
  expect({ model: model.label, found: start >= 0 }).toEqual({ model: model.label, found: true });
  const end = lines.findIndex((l, i) => i > start && /^##?#? /.test(l));
  return lines.slice(start, end < 0 ? undefined : end);
}

/** Rows of the table under `#### <title>` in a section, as arrays of cells. */
function table(lines: string[], title: string): string[][] {
  const start = lines.indexOf(`#### ${title}`);
  expect(start).toBeGreaterThan(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 4)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows;
}

const unquote = (cellText: string) => cellText.replace(/^`|`$/g, '');

test('docs/api-reference.md is what `npm run gen:docs` writes now (regenerate it after changing a model)', () => {
  expect(fs.existsSync(COMMITTED)).toBe(true);
  expect(fs.readFileSync(COMMITTED, 'utf8') === text).toBe(true);
});

test('the generator writes the same file from the command line', () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-docs-')), 'reference.md');
  const env = { ...process.env };
  delete env.NETINV_PLUGINS;
  const run = spawnSync(process.execPath, [path.join(ROOT, 'dist/generators/docs.js'), '--output', out], { cwd: ROOT, env, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^Wrote .*reference\.md \(API 1\.6, \d+ models\)\n$/);
  expect(fs.readFileSync(out, 'utf8') === text).toBe(true);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
});

test('every routed model has a section with its list and detail endpoints and methods', () => {
  const routed = registry.models.filter((m) => m.path !== null);
  expect(routed.length).toBeGreaterThan(50);
  for (const model of routed) {
    const lines = section(model);
    const list = `/api/${model.app.urlBase}/${model.path}/`;
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^- \`${list.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`: GET`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^- \`${list.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\{id\\}/\`: GET`)));
  }
  const prefix = section((registry.get('ipam.prefix') as ModelMeta));
  expect(prefix).toContainEqual(expect.stringMatching(/^- `\/api\/ipam\/prefixes\/\{id\}\/available-ips\/`: GET, POST/));
});

test('each field of a sample model, with its type, required and read-only flags', () => {
  const model = (registry.get('ipam.prefix') as ModelMeta);
  const rows = new Map(table(section(model), 'Fields').map((r) => [unquote(r[0]), { type: r[1], required: r[2], readOnly: r[3] }]));
  const expected = model.fields.filter((f) => f.name !== 'id' && !f.hidden);
  expect([...rows.keys()]).toEqual(['id', 'display', 'url', ...expected.map((f) => f.name)]);
  for (const f of expected) {
    const row = rows.get(f.name);
    expect({ field: f.name, required: row?.required, readOnly: row?.readOnly }).toEqual({
      field: f.name,
      required: f.required ? 'yes' : 'no',
      readOnly: f.readOnly || !f.kind.parse ? 'yes' : 'no',
    });
  }
  expect(rows.get('prefix')).toEqual({ type: 'string', required: 'yes', readOnly: 'no' });
  expect(rows.get('family')?.readOnly).toBe('yes');
  expect(rows.get('vrf')?.type).toBe('nested object → `ipam.vrf`');
  expect(rows.get('tags')?.type).toBe('list of nested object → `extras.tag`');
  expect(rows.get('status')?.type).toContain('`extras.status`');
});

test('the choices of a choice field, values and labels', () => {
  const model = (registry.get('dcim.rack') as ModelMeta);
  const field = model.field('type');
  const entries = (field?.options as { choices: { entries: Array<[string, string]> } }).choices.entries;
  expect(entries.length).toBeGreaterThan(3);
  const line = section(model).find((l) => l.startsWith('- `type`: '));
  const listed = [...(line ?? '').matchAll(/`([^`]+)` \(((?:[^()]|\([^()]*\))*)\)/g)].map((m) => [m[1], m[2]]);
  expect(listed).toEqual(entries.map(([value, display]) => [String(value), display]));
});

test('every filter of a model, each lookup under its base name', () => {
  for (const label of ['dcim.site', 'ipam.prefix', 'dcim.interface']) {
    const model = (registry.get(label) as ModelMeta);
    const listed = table(section(model), 'Filters').flatMap((r) => {
      const base = unquote(r[0]);
      const suffixes = r[1] ? r[1].split(' ').map(unquote) : [];
      return [base, ...suffixes.map((s) => `${base}${s}`)];
    });
    expect(listed.slice().sort()).toEqual([...filterSetFor(model).filters.keys()].sort());
  }
  const site = section((registry.get('dcim.site') as ModelMeta));
  expect(site).toContainEqual(expect.stringMatching(/^\| `name` \| `__n` `__ic` .*\| string, repeatable/));
  expect(site).toContain('- `include`: adds `computed_fields`, `relationships` on reads.');
  expect(site).toContainEqual(expect.stringMatching(/^- `cf_<name>`/));
  expect(section((registry.get('dcim.device') as ModelMeta))).toContain('- `exclude`: leaves out `config_context` on reads.');
});

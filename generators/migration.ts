/**
 * Drafts a dialect-neutral migration: builds the registry, applies the existing migrations to a
 * scratch in-memory SQLite database, compares the result with the entity metadata and writes the
 * difference as QueryRunner table-API calls to app/migrations/ for review. With `--plugin`, the
 * plugin is enabled and the draft (its tables only, since the core ones are up to date) goes to
 * the plugin's own migrations/ folder, next to its source.
 *
 *   npm run gen:migration -- <name> [--plugin <module path or package>]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataSource, EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { ColumnSpec, TableSpec } from '../framework/store/migration-schema';
import { dataSourceFor, migrate, registryWith } from '../app/database';
import { loadConfig } from '../app/config';
import { enabledPlugins } from '../app/plugins';
import type { LoadedPlugin } from '../framework/plugins';

function specType(column: ColumnMetadata): ColumnSpec['type'] {
  const t = column.type;
  if (t === Boolean) return 'boolean';
  if (t === Date) return 'datetime';
  if (t === String) return 'varchar';
  if (t === Number) return 'integer';
  if (typeof t === 'string' && ['uuid', 'varchar', 'text', 'integer', 'bigint', 'date', 'decimal', 'boolean'].includes(t)) return t as ColumnSpec['type'];
  throw new Error(`${column.entityMetadata.tableName}.${column.databaseName}: no portable type for ${String(t)}`);
}

function columnSpec(column: ColumnMetadata): ColumnSpec {
  const spec: ColumnSpec = { name: column.databaseName, type: specType(column) };
  if (column.length) spec.length = String(column.length);
  if (column.precision !== undefined && column.precision !== null) spec.precision = column.precision;
  if (column.scale !== undefined && column.scale !== null) spec.scale = column.scale;
  if (column.isNullable) spec.nullable = true;
  if (column.isPrimary) spec.primary = true;
  if (column.isGenerated && column.generationStrategy === 'increment') spec.increment = true;
  if (column.referencedColumn) spec.references = true;
  if (typeof column.default === 'number') spec.default = column.default;
  return spec;
}

export function tableSpec(meta: EntityMetadata): TableSpec {
  return {
    name: meta.tableName,
    columns: meta.columns.map(columnSpec),
    indices: meta.indices.map((i) => ({ columns: i.columns.map((c) => c.databaseName), ...(i.isUnique ? { unique: true } : {}) })),
    uniques: meta.uniques.map((u) => ({ columns: u.columns.map((c) => c.databaseName) })),
    foreignKeys: meta.foreignKeys.map((f) => ({
      columns: f.columns.map((c) => c.databaseName),
      referencedTable: f.referencedEntityMetadata.tableName,
      referencedColumns: f.referencedColumns.map((c) => c.databaseName),
      onDelete: f.onDelete ?? 'NO ACTION',
      onUpdate: f.onUpdate ?? 'NO ACTION',
    })),
  };
}

/** A TypeScript literal of a table spec: one column, index or key per line. */
function formatSpec(spec: TableSpec): string {
  const lit = (v: unknown): string =>
    Array.isArray(v)
      ? `[${v.map(lit).join(', ')}]`
      : v !== null && typeof v === 'object'
        ? `{ ${Object.entries(v).map(([k, x]) => `${k}: ${lit(x)}`).join(', ')} }`
        : typeof v === 'string'
          ? `'${v.replace(/'/g, "\\'")}'`
          : String(v);
  const list = (key: string, items: unknown[] | undefined) =>
    items && items.length ? `  ${key}: [\n${items.map((i) => `    ${lit(i)},`).join('\n')}\n  ],\n` : '';
  return `{\n  name: ${lit(spec.name)},\n${list('columns', spec.columns)}${list('indices', spec.indices)}${list('uniques', spec.uniques)}${list('foreignKeys', spec.foreignKeys)}}`;
}

/** Tables in dependency order, so foreign keys point at tables that exist. */
function ordered(metas: EntityMetadata[]): EntityMetadata[] {
  const out: EntityMetadata[] = [];
  const visiting = new Set<EntityMetadata>();
  const visit = (m: EntityMetadata) => {
    if (out.includes(m) || visiting.has(m)) return;
    visiting.add(m);
    for (const fk of m.foreignKeys) if (fk.referencedEntityMetadata !== m) visit(fk.referencedEntityMetadata);
    out.push(m);
  };
  [...metas].sort((a, b) => a.tableName.localeCompare(b.tableName)).forEach(visit);
  return out;
}

export async function diff(ds: DataSource): Promise<{ up: string[]; down: string[] }> {
  const qr = ds.createQueryRunner();
  const up: string[] = [];
  const down: string[] = [];
  try {
    for (const meta of ordered(ds.entityMetadatas)) {
      const table = await qr.getTable(meta.tableName);
      if (!table) {
        up.push(`await createTable(qr, ${formatSpec(tableSpec(meta))});`);
        down.unshift(`await qr.dropTable(${JSON.stringify(meta.tableName)});`);
        continue;
      }
      const existing = new Set(table.columns.map((c) => c.name));
      for (const column of meta.columns) {
        if (existing.has(column.databaseName)) continue;
        up.push(`await qr.addColumn(${JSON.stringify(meta.tableName)}, new TableColumn(tableColumn(qr, ${JSON.stringify(columnSpec(column))})));`);
        down.unshift(`await qr.dropColumn(${JSON.stringify(meta.tableName)}, ${JSON.stringify(column.databaseName)});`);
      }
      const wanted = new Set(meta.columns.map((c) => c.databaseName));
      for (const c of table.columns) {
        if (!wanted.has(c.name)) up.push(`// review: ${meta.tableName}.${c.name} is no longer declared\nawait qr.dropColumn(${JSON.stringify(meta.tableName)}, ${JSON.stringify(c.name)});`);
      }
      const indexNames = new Set(table.indices.map((i) => i.name));
      for (const i of meta.indices) {
        if (indexNames.has(i.name)) continue;
        up.push(`await qr.createIndex(${JSON.stringify(meta.tableName)}, new TableIndex(${JSON.stringify({ name: i.name, columnNames: i.columns.map((c) => c.databaseName), isUnique: i.isUnique })}));`);
        down.unshift(`await qr.dropIndex(${JSON.stringify(meta.tableName)}, ${JSON.stringify(i.name)});`);
      }
      const fkNames = new Set(table.foreignKeys.map((f) => f.name));
      for (const f of meta.foreignKeys) {
        if (fkNames.has(f.name)) continue;
        up.push(
          `await qr.createForeignKey(${JSON.stringify(meta.tableName)}, new TableForeignKey(${JSON.stringify({
            name: f.name,
            columnNames: f.columns.map((c) => c.databaseName),
            referencedTableName: f.referencedEntityMetadata.tableName,
            referencedColumnNames: f.referencedColumns.map((c) => c.databaseName),
            onDelete: f.onDelete ?? 'NO ACTION',
            onUpdate: f.onUpdate ?? 'NO ACTION',
          })}));`,
        );
        // Undone first: MySQL refuses to drop an index or column a foreign key still needs.
        down.unshift(`await qr.dropForeignKey(${JSON.stringify(meta.tableName)}, ${JSON.stringify(f.name)});`);
      }
    }
  } finally {
    await qr.release();
  }
  return { up, down };
}

function render(className: string, up: string[], down: string[], frameworkImport: string): string {
  const indent = (lines: string[]) => lines.map((l) => `    ${l.replace(/\n/g, '\n    ')}`).join('\n');
  return `import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '${frameworkImport}';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(qr: QueryRunner): Promise<void> {
${indent(up)}
  }

  async down(qr: QueryRunner): Promise<void> {
${indent(down)}
  }
}
`;
}

/** Where a draft goes: app/migrations/, or the source folder of the plugin (not its compiled copy). */
function targetFolder(plugin: LoadedPlugin | undefined): string {
  const root = path.resolve(__dirname, '../..');
  if (!plugin) return path.join(root, 'app/migrations');
  const entry = require.resolve(path.isAbsolute(plugin.package) || plugin.package.startsWith('.') ? path.resolve(plugin.package) : plugin.package, { paths: [process.cwd()] });
  const compiled = `${path.join(root, 'dist')}${path.sep}`;
  const source = entry.startsWith(compiled) ? path.join(root, entry.slice(compiled.length)) : entry;
  return path.join(path.dirname(source), 'migrations');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const pluginAt = args.indexOf('--plugin');
  const pluginSpec = pluginAt >= 0 ? args[pluginAt + 1] : undefined;
  const name = args.find((a, i) => !a.startsWith('--') && !(pluginAt >= 0 && i === pluginAt + 1));
  if (!name || !/^[a-z][a-z0-9-]*$/.test(name) || (pluginAt >= 0 && !pluginSpec)) {
    process.stderr.write('usage: npm run gen:migration -- <name-in-kebab-case> [--plugin <module path or package>]\n');
    process.exit(2);
  }
  const config = loadConfig({ ...process.env, NETINV_PLUGINS: pluginSpec ?? '' });
  const plugins = enabledPlugins(config);
  const registry = registryWith(plugins);
  const ds = await dataSourceFor('sqlite::memory:', registry, false, plugins);
  await ds.initialize();
  await migrate(ds, plugins);
  const { up, down } = await diff(ds);
  await ds.destroy();
  if (up.length === 0) {
    process.stdout.write('No changes: the migrations already produce the declared schema.\n');
    return;
  }
  const stamp = Date.now();
  const className = `${name.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase())}${stamp}`;
  const dir = targetFolder(plugins[0]);
  const root = path.resolve(__dirname, '../..');
  const frameworkImport = path.relative(dir, path.join(root, 'framework/store/migration-schema')).split(path.sep).join('/');
  const file = path.join(dir, `${stamp}-${name}.ts`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, render(className, up, down, frameworkImport.startsWith('.') ? frameworkImport : `./${frameworkImport}`));
  const index = path.join(dir, 'index.ts');
  let text = fs.existsSync(index) ? fs.readFileSync(index, 'utf8') : '/** Schema migrations, oldest first. */\nexport const MIGRATIONS: Function[] = [];\n';
  text = `import { ${className} } from './${stamp}-${name}';\n${text}`.replace(/(MIGRATIONS: Function\[\] = \[)([^\]]*)\]/, (_m, head: string, body: string) => `${head}${body.trim() ? `${body.trim().replace(/,$/, '')}, ` : ''}${className}]`);
  fs.writeFileSync(index, text);
  process.stdout.write(`Wrote ${path.relative(process.cwd(), file)} (${up.length} steps); review it, then commit.\n`);
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}

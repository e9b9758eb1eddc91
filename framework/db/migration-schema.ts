import { Table, TableForeignKey, TableIndex, TableUnique, type QueryRunner, type TableColumnOptions } from 'typeorm';

/**
 * Dialect-neutral column description used by migrations. Types are the ones field decorators
 * declare; each is turned into the connected driver's column the same way TypeORM turns entity
 * metadata into columns, so migrated schemas equal what the metadata declares.
 */
export interface ColumnSpec {
  name: string;
  type: 'uuid' | 'varchar' | 'text' | 'integer' | 'bigint' | 'boolean' | 'date' | 'datetime' | 'decimal';
  length?: string;
  precision?: number;
  scale?: number;
  nullable?: boolean;
  primary?: boolean;
}

export interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  indices?: Array<{ name: string; columns: string[]; unique?: boolean }>;
  uniques?: Array<{ name: string; columns: string[] }>;
  foreignKeys?: Array<{ name: string; columns: string[]; referencedTable: string; referencedColumns: string[]; onDelete?: string; onUpdate?: string }>;
}

/** The entity-decorator type that produced a spec type. */
function decoratorType(type: ColumnSpec['type']): unknown {
  if (type === 'boolean') return Boolean;
  if (type === 'datetime') return Date;
  return type;
}

interface DriverLike {
  normalizeType(column: object): string;
  getColumnLength(column: object): string;
  normalizeIsUnique(column: object): boolean;
  normalizeDefault(column: object): string | undefined;
}

export function tableColumn(qr: QueryRunner, spec: ColumnSpec): TableColumnOptions {
  const driver = qr.connection.driver as unknown as DriverLike;
  const meta = {
    type: decoratorType(spec.type),
    length: spec.length ?? '',
    precision: spec.precision,
    scale: spec.scale,
    isNullable: spec.nullable ?? false,
    isPrimary: spec.primary ?? false,
    databaseName: spec.name,
    default: undefined,
    isArray: false,
    entityMetadata: { uniques: [], indices: [] },
    isGenerated: false,
  };
  return {
    name: spec.name,
    type: driver.normalizeType(meta),
    length: driver.getColumnLength(meta),
    precision: spec.precision,
    scale: spec.scale,
    isNullable: spec.nullable ?? false,
    isPrimary: spec.primary ?? false,
  };
}

export async function createTable(qr: QueryRunner, spec: TableSpec): Promise<void> {
  await qr.createTable(
    new Table({
      name: spec.name,
      columns: spec.columns.map((c) => tableColumn(qr, c)),
      indices: (spec.indices ?? []).map((i) => new TableIndex({ name: i.name, columnNames: i.columns, isUnique: i.unique ?? false })),
      uniques: (spec.uniques ?? []).map((u) => new TableUnique({ name: u.name, columnNames: u.columns })),
      foreignKeys: (spec.foreignKeys ?? []).map(
        (f) =>
          new TableForeignKey({
            name: f.name,
            columnNames: f.columns,
            referencedTableName: f.referencedTable,
            referencedColumnNames: f.referencedColumns,
            onDelete: f.onDelete ?? 'NO ACTION',
            onUpdate: f.onUpdate ?? 'NO ACTION',
          }),
      ),
    }),
    false,
    true,
    true,
  );
}

/** Inserts rows with bound values (seed data), in the connected dialect's placeholder style. */
export async function insertRows(qr: QueryRunner, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  const type = qr.connection.options.type;
  const quote = (id: string) => (type === 'mysql' || type === 'mariadb' ? `\`${id}\`` : `"${id}"`);
  for (const row of rows) {
    const cols = Object.keys(row);
    const placeholders = cols.map((_c, i) => (type === 'postgres' ? `$${i + 1}` : '?'));
    const values = cols.map((c) => (typeof row[c] === 'boolean' && type !== 'postgres' ? (row[c] ? 1 : 0) : row[c]));
    await qr.query(`INSERT INTO ${quote(table)} (${cols.map(quote).join(', ')}) VALUES (${placeholders.join(', ')})`, values);
  }
}

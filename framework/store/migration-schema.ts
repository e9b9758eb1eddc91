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
  /** Auto-increment integer key. */
  increment?: boolean;
  /** A foreign-key column (TypeORM sizes those after the referenced column). */
  references?: boolean;
  /** A constant default (numbers only): what rows existing when the column is added hold. */
  default?: number;
}

export interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  indices?: Array<{ columns: string[]; unique?: boolean }>;
  uniques?: Array<{ columns: string[] }>;
  foreignKeys?: Array<{ columns: string[]; referencedTable: string; referencedColumns: string[]; onDelete?: string; onUpdate?: string }>;
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
    isGenerated: spec.increment ?? false,
    generationStrategy: spec.increment ? 'increment' : undefined,
  };
  const type = driver.normalizeType(meta);
  let length = driver.getColumnLength(meta);
  // As TypeORM's join-column builder does: UUID foreign keys stored as text are 36 characters.
  if (spec.references && spec.type === 'uuid' && !length && isMysqlFamily(qr) && type !== 'uuid') length = '36';
  return {
    name: spec.name,
    type,
    length,
    precision: spec.precision,
    scale: spec.scale,
    isNullable: spec.nullable ?? false,
    isPrimary: spec.primary ?? false,
    ...(spec.increment ? { isGenerated: true, generationStrategy: 'increment' as const } : {}),
    ...(spec.default !== undefined ? { default: String(spec.default) } : {}),
  };
}

function isMysqlFamily(qr: QueryRunner): boolean {
  const type = qr.connection.options.type;
  return type === 'mysql' || type === 'mariadb';
}

/**
 * Creates a table. Constraint and index names come from the connection's naming strategy, as for
 * entity metadata; MySQL-family servers get unique constraints as unique indexes, as TypeORM does.
 */
export async function createTable(qr: QueryRunner, spec: TableSpec): Promise<void> {
  const naming = qr.connection.namingStrategy;
  const mysql = isMysqlFamily(qr);
  const uniques = spec.uniques ?? [];
  const indices = [
    ...(spec.indices ?? []).map((i) => ({ columns: i.columns, unique: i.unique ?? false })),
    ...(mysql ? uniques.map((u) => ({ columns: u.columns, unique: true })) : []),
  ];
  await qr.createTable(
    new Table({
      name: spec.name,
      columns: spec.columns.map((c) => tableColumn(qr, c)),
      indices: indices.map((i) => new TableIndex({ name: naming.indexName(spec.name, i.columns), columnNames: i.columns, isUnique: i.unique })),
      uniques: mysql ? [] : uniques.map((u) => new TableUnique({ name: naming.uniqueConstraintName(spec.name, u.columns), columnNames: u.columns })),
      foreignKeys: (spec.foreignKeys ?? []).map(
        (f) =>
          new TableForeignKey({
            name: naming.foreignKeyName(spec.name, f.columns, f.referencedTable, f.referencedColumns),
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

/** Identifier quoting and placeholders of the connected driver, for the seed-data helpers below. */
function sqlStyle(qr: QueryRunner): { quote(id: string): string; placeholder(n: number): string; value(v: unknown): unknown } {
  const type = qr.connection.options.type;
  const mysql = type === 'mysql' || type === 'mariadb';
  return {
    quote: (id) => (mysql ? `\`${id}\`` : `"${id}"`),
    placeholder: (n) => (type === 'postgres' ? `$${n}` : '?'),
    value: (v) => (typeof v === 'boolean' && type !== 'postgres' ? (v ? 1 : 0) : v),
  };
}

/** `a = ? AND b = ?` of an equality map, its values appended to `values`. */
function whereClause(style: ReturnType<typeof sqlStyle>, where: Record<string, unknown>, values: unknown[]): string {
  const parts = Object.entries(where).map(([col, v]) => {
    values.push(style.value(v));
    return `${style.quote(col)} = ${style.placeholder(values.length)}`;
  });
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}

/** Inserts rows with bound values (seed data), in the connected dialect's placeholder style. */
export async function insertRows(qr: QueryRunner, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  const style = sqlStyle(qr);
  for (const row of rows) {
    const cols = Object.keys(row);
    const placeholders = cols.map((_c, i) => style.placeholder(i + 1));
    const values = cols.map((c) => style.value(row[c]));
    await qr.query(`INSERT INTO ${style.quote(table)} (${cols.map(style.quote).join(', ')}) VALUES (${placeholders.join(', ')})`, values);
  }
}

/**
 * Inserts rows that all set the same columns, many to a statement (a backfill of thousands of
 * rows): `rowsPerStatement` times the columns stays below SQLite's oldest limit of 999 bound values.
 */
export async function insertManyRows(qr: QueryRunner, table: string, rows: Array<Record<string, unknown>>, rowsPerStatement = 200): Promise<void> {
  if (rows.length === 0) return;
  const style = sqlStyle(qr);
  const cols = Object.keys(rows[0]);
  const head = `INSERT INTO ${style.quote(table)} (${cols.map(style.quote).join(', ')}) VALUES `;
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const values: unknown[] = [];
    const tuples = rows.slice(start, start + rowsPerStatement).map((row) => {
      const placeholders = cols.map((c) => {
        values.push(style.value(row[c]));
        return style.placeholder(values.length);
      });
      return `(${placeholders.join(', ')})`;
    });
    await qr.query(head + tuples.join(', '), values);
  }
}

/** Rows of seed data matching an equality map (all rows without one), as objects keyed by column. */
export async function selectRows(qr: QueryRunner, table: string, columns: string[], where: Record<string, unknown> = {}): Promise<Array<Record<string, unknown>>> {
  const style = sqlStyle(qr);
  const values: unknown[] = [];
  const sql = `SELECT ${columns.map(style.quote).join(', ')} FROM ${style.quote(table)}${whereClause(style, where, values)}`;
  return (await qr.query(sql, values)) as Array<Record<string, unknown>>;
}

/** Sets columns on the rows matching an equality map. */
export async function updateRows(qr: QueryRunner, table: string, set: Record<string, unknown>, where: Record<string, unknown>): Promise<void> {
  const style = sqlStyle(qr);
  const values: unknown[] = [];
  const assignments = Object.entries(set).map(([col, v]) => {
    values.push(style.value(v));
    return `${style.quote(col)} = ${style.placeholder(values.length)}`;
  });
  await qr.query(`UPDATE ${style.quote(table)} SET ${assignments.join(', ')}${whereClause(style, where, values)}`, values);
}

/** Deletes the rows matching an equality map (never the whole table: the map must not be empty). */
export async function deleteRows(qr: QueryRunner, table: string, where: Record<string, unknown>): Promise<void> {
  if (Object.keys(where).length === 0) throw new Error(`deleteRows(${table}) needs a condition`);
  const style = sqlStyle(qr);
  const values: unknown[] = [];
  await qr.query(`DELETE FROM ${style.quote(table)}${whereClause(style, where, values)}`, values);
}

import { newRowId } from './row-ids';
import { linkOf } from '../fields/many-to-many';
import type { FieldMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import type { Executor } from './executor';
import { Params } from './params';

/** The targets each owner is linked to through a many-to-many field; every owner has an entry. */
export async function linkedIds(db: Executor, field: FieldMeta, ownerIds: Id[]): Promise<Map<Id, Id[]>> {
  const link = linkOf(field);
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  let where = params.in(q(link.owner), ownerIds);
  if (link.discriminator) where += ` AND ${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
  const rows = await db.rows(`SELECT ${q(link.owner)}, ${q(link.target)} FROM ${q(link.table)} WHERE ${where}`, params.values);
  const out = new Map<Id, Id[]>();
  for (const id of ownerIds) out.set(id, []);
  for (const [owner, target] of rows) out.get(owner as Id)?.push(target as Id);
  return out;
}

/**
 * The targets of each owner as one expression of the owners' own SELECT (`ownerPk`: their key
 * column): a correlated subquery aggregating the link rows, and the reader of its value. The ids
 * linkedIds reads, without a statement of their own: an update reads the object it locks and its
 * links in one round trip while it holds the lock.
 */
export function linkedIdsInRow(field: FieldMeta, ownerPk: string, params: Params): { sql: string; read(value: unknown): Id[] } {
  const link = linkOf(field);
  const dialect = params.dialect;
  const q = dialect.quote;
  const alias = q('lk');
  let where = `${alias}.${q(link.owner)} = ${ownerPk}`;
  if (link.discriminator) where += ` AND ${alias}.${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
  const target = `${alias}.${q(link.target)}`;
  return {
    sql: `(SELECT ${dialect.jsonRowsAgg([target], target)} FROM ${q(link.table)} ${alias} WHERE ${where})`,
    read(value) {
      if (value === null || value === undefined) return [];
      const rows = (dialect.jsonAggParsed ? value : JSON.parse(String(value))) as unknown[][];
      return rows.map((r) => r[0] as Id);
    },
  };
}

/**
 * Links the owner to exactly `targets`: removes the other links, adds the missing ones. An update
 * passes the links its locked read of the owner found (`known`), read once: writes of an object's
 * links take that lock first. Only deleting a target removes links without it, and a link to a
 * deleted target is neither kept nor made again whatever this function finds.
 */
export async function replaceLinks(db: Executor, field: FieldMeta, ownerId: Id, targets: Id[], created: boolean, known?: readonly Id[]): Promise<void> {
  const link = linkOf(field);
  const wanted = new Set(targets);
  const existing = created ? [] : (known ?? (await linkedIds(db, field, [ownerId])).get(ownerId) ?? []);
  const q = db.dialect.quote;
  const removed = existing.filter((t) => !wanted.has(t));
  const added = [...wanted].filter((t) => !existing.includes(t));
  if (removed.length) {
    const params = new Params(db.dialect);
    let sql = `DELETE FROM ${q(link.table)} WHERE ${q(link.owner)} = ${params.add(ownerId)} AND ${params.in(q(link.target), removed)}`;
    if (link.discriminator) sql += ` AND ${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
    await db.run(sql, params.values);
  }
  if (added.length) await addLinks(db, field, added.map((target) => [ownerId, target]));
}

/** Adds links (owner, target) that do not exist yet: as many rows per INSERT as the database's limit on bound values allows. */
export async function addLinks(db: Executor, field: FieldMeta, pairs: ReadonlyArray<readonly [Id, Id]>): Promise<void> {
  const link = linkOf(field);
  const q = db.dialect.quote;
  const columns = [link.owner, link.target, ...(link.discriminator ? [link.discriminator.column] : []), ...(link.idColumn ? [link.idColumn] : [])];
  const perStatement = Math.max(1, Math.floor(db.dialect.maxBoundValues / columns.length));
  for (let start = 0; start < pairs.length; start += perStatement) {
    const params = new Params(db.dialect);
    const tuples = pairs.slice(start, start + perStatement).map(([owner, target]) => {
      const values: unknown[] = [owner, target];
      if (link.discriminator) values.push(link.discriminator.value);
      if (link.idColumn) values.push(newRowId());
      return `(${params.list(values)})`;
    });
    await db.run(`INSERT INTO ${q(link.table)} (${columns.map(q).join(', ')}) VALUES ${tuples.join(', ')}`, params.values);
  }
  // Planners need to know the link table grew (a bulk import of tagged objects): see statistics.ts.
  db.statistics?.noteInserted(link.table, pairs.length);
  if (!db.inTransaction) db.statistics?.committed();
}

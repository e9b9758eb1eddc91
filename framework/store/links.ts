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

/** Links the owner to exactly `targets`: removes the other links, adds the missing ones. */
export async function replaceLinks(db: Executor, field: FieldMeta, ownerId: Id, targets: Id[], created: boolean): Promise<void> {
  const link = linkOf(field);
  const wanted = new Set(targets);
  const existing = created ? [] : ((await linkedIds(db, field, [ownerId])).get(ownerId) ?? []);
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

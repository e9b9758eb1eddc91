import type { StoredChoice } from '../fields/kind';
import type { ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { containsLabel } from './comparisons/lists';
import type { Executor } from './executor';
import { Params } from './params';

/** The status with this slug, when its content types include `label`; null otherwise. */
export async function statusFor(db: Executor, statuses: ModelMeta, slug: string, label: string): Promise<Id | null> {
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const rows = await db.rows(
    `SELECT ${q('id')} FROM ${q(statuses.table)} WHERE ${q('slug')} = ${params.add(slug)} AND ${containsLabel(q('content_types'), label, params)}`,
    params.values,
  );
  return rows.length === 1 ? (rows[0][0] as Id) : null;
}

/** Statuses whose content types include `label`, ordered by name, as OPTIONS lists them. */
export async function statusesFor(db: Executor, statuses: ModelMeta, label: string): Promise<StoredChoice[]> {
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const rows = await db.rows(
    `SELECT ${q('slug')}, ${q('name')} FROM ${q(statuses.table)} WHERE ${containsLabel(q('content_types'), label, params)} ORDER BY ${db.dialect.orderText(q('name'))}`,
    params.values,
  );
  return rows.map((r) => ({ value: r[0] as string, display: r[1] as string }));
}

import type { Executor } from '../store/executor';
import { Params } from '../store/params';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import { compilePredicate, type Predicate } from '../filterset/predicate';
import { ormFilter } from '../filterset/orm';
import type { Id } from './select';
import type { Values } from './write-context';

/** Physical columns a model's fields load from. */
export function loadColumns(model: ModelMeta): string[] {
  const cols = new Set<string>();
  for (const f of model.fields) {
    for (const c of f.kind.loadColumns?.(f) ?? (f.column && f.kind.load ? [f.column] : [])) cols.add(c);
  }
  return [...cols];
}

/**
 * Stored internal values of the rows matching `where` (or the given ids), in the model's
 * ordering, link-table fields included.
 */
export async function loadValues(db: Executor, model: ModelMeta, where: Predicate | Id[], order = true): Promise<Values[]> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const cols = loadColumns(model);
  const condition = Array.isArray(where)
    ? where.length
      ? `${q('t0')}.${q(model.pk.column as string)} IN (${params.list(where)})`
      : '1=0'
    : compilePredicate(where, model, 't0', params);
  const orderBy = order ? ` ORDER BY ${q('t0')}.${q(model.pk.column as string)}` : '';
  const rows = await db.objects(
    `SELECT ${cols.map((c) => `${q('t0')}.${q(c)}`).join(', ')} FROM ${q(model.table)} ${q('t0')} WHERE ${condition}${orderBy}`,
    params.values,
  );
  const out: Values[] = rows.map((row) => {
    const values: Values = {};
    for (const f of model.fields) if (f.kind.load && f.column) values[f.name] = f.kind.load(f, row, db.dialect);
    return values;
  });
  const linked = model.fields.filter((f) => f.kind.loadMany);
  if (linked.length && out.length) {
    const ids = out.map((v) => v.id as Id);
    for (const f of linked) {
      const map = await (f.kind.loadMany as NonNullable<FieldMeta['kind']['loadMany']>)(f, ids, db);
      for (const v of out) v[f.name] = map.get(v.id as Id) ?? [];
    }
  }
  return out;
}

/** Stored values of the objects of `model` matching Django-style attributes (or a predicate). */
export async function findObjects(db: Executor, model: ModelMeta, where: Record<string, unknown> | Predicate): Promise<Values[]> {
  const predicate = 'kind' in where && typeof where.kind === 'string' ? (where as Predicate) : ormFilter(model, where as Record<string, unknown>);
  return loadValues(db, model, predicate);
}

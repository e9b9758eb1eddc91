import { FieldError } from '../../errors';
import { linkOf } from '../../fields/many-to-many';
import type { FieldMeta } from '../../metadata/model-meta';
import { escapeLike } from '../dialect/types';
import type { Params } from '../params';
import { andJoin } from './values';

/** True when a content-type list column (JSON text) contains `label`. */
export function containsLabel(expr: string, label: string, params: Params): string {
  return params.dialect.like(expr, params.add(`%"${escapeLike(label)}"%`));
}

/** A content-type list holding every one of the labels (Nautobot's AND semantics). */
export function compareContentTypes(expr: string, values: unknown[], params: Params): string {
  return andJoin(values.map((v) => containsLabel(expr, String(v), params)));
}

/** A stored list of strings (JSON text) holding every one of the values: each value's JSON text is in the list's. */
export function compareStringList(expr: string, values: unknown[], params: Params): string {
  return andJoin(values.map((v) => params.dialect.like(expr, params.add(`%${escapeLike(JSON.stringify(String(v)))}%`))));
}

/** A stored list of integers (JSON text) holding every one of the values. */
export function compareIntegerList(field: FieldMeta, expr: string, lookup: string, values: unknown[], params: Params): string {
  if (lookup !== 'contains') throw new FieldError(`Unsupported lookup '${lookup}' for ${field.name}`);
  const bind = (v: unknown) => params.add(v);
  return andJoin(values.map((v) => params.dialect.jsonListHasNumber(expr, Number(v), bind)));
}

/**
 * The owner (`ownerId`, its primary key) is linked to every value through the field's link table
 * (tags: AND semantics); `isnull` tests for no link at all.
 */
export function compareLinks(field: FieldMeta, ownerId: string, lookup: string, values: unknown[], params: Params): string {
  const link = linkOf(field);
  const q = params.dialect.quote;
  const disc = link.discriminator ? ` AND ${q('lk')}.${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}` : '';
  const exists = (v: unknown) =>
    `EXISTS (SELECT 1 FROM ${q(link.table)} ${q('lk')} WHERE ${q('lk')}.${q(link.owner)} = ${ownerId}${disc} AND ${q('lk')}.${q(link.target)} = ${params.add(v)})`;
  if (lookup === 'isnull') {
    const any = `EXISTS (SELECT 1 FROM ${q(link.table)} ${q('lk')} WHERE ${q('lk')}.${q(link.owner)} = ${ownerId}${disc})`;
    return values[0] ? `NOT ${any}` : any;
  }
  return andJoin(values.map(exists));
}

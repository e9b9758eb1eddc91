import type { Params } from '../store/params';
import type { FieldMeta, ModelMeta, ReverseRelation } from '../metadata/model-meta';
import { compileJsonKey, type JsonKeyTest } from './json-key';

/**
 * A filter as data: REST query parameters, attribute dictionaries of related objects and
 * permission constraints all become one of these trees, compiled by one compiler.
 */
export type Predicate =
  | { kind: 'and'; items: Predicate[] }
  | { kind: 'or'; items: Predicate[] }
  | { kind: 'not'; item: Predicate }
  | { kind: 'field'; field: FieldMeta; lookup: string; values: unknown[] }
  | { kind: 'related'; via: FieldMeta; item: Predicate }
  | { kind: 'reverse'; relation: ReverseRelation; item: Predicate }
  | { kind: 'reverse-link'; relation: ReverseRelation; item: Predicate }
  /** A generic relation (`assigned_object`) pointing at an object of `target` matching `item`. */
  | { kind: 'generic'; typeField: FieldMeta; idField: FieldMeta; target: ModelMeta; item: Predicate }
  /** The other way round: an object of `source` matching `item` points at this one through its generic relation. */
  | { kind: 'pointed-at'; source: ModelMeta; typeField: FieldMeta; idField: FieldMeta; item: Predicate }
  /** Some object of `model` matches `item`, whatever the row (a filter naming another object). */
  | { kind: 'exists'; model: ModelMeta; item: Predicate }
  | { kind: 'sql'; build: (alias: string, params: Params) => string }
  | JsonKeyTest
  | { kind: 'const'; value: boolean };

export const TRUE: Predicate = { kind: 'const', value: true };
export const FALSE: Predicate = { kind: 'const', value: false };

export function and(items: Predicate[]): Predicate {
  const flat = items.filter((p) => !(p.kind === 'const' && p.value));
  if (flat.some((p) => p.kind === 'const' && !p.value)) return FALSE;
  if (flat.length === 0) return TRUE;
  return flat.length === 1 ? flat[0] : { kind: 'and', items: flat };
}

export function or(items: Predicate[]): Predicate {
  const flat = items.filter((p) => !(p.kind === 'const' && !p.value));
  if (flat.some((p) => p.kind === 'const' && p.value)) return TRUE;
  if (flat.length === 0) return FALSE;
  return flat.length === 1 ? flat[0] : { kind: 'or', items: flat };
}

/** Exclusion as Django does it: rows where the positive test is NULL (empty relation) stay. */
export function not(item: Predicate): Predicate {
  if (item.kind === 'const') return { kind: 'const', value: !item.value };
  return { kind: 'not', item };
}

export function fieldTest(field: FieldMeta, lookup: string, values: unknown[]): Predicate {
  return { kind: 'field', field, lookup, values };
}

/** Fresh subquery aliases for one compilation. */
export class AliasSource {
  private n = 0;
  next(prefix = 's'): string {
    return `${prefix}${++this.n}`;
  }
}

/** Compiles a predicate against `alias` (a table alias of `model`); values are bound in `params`. */
export function compilePredicate(p: Predicate, model: ModelMeta, alias: string, params: Params, aliases = new AliasSource()): string {
  const q = params.dialect.quote;
  switch (p.kind) {
    case 'const':
      return p.value ? '1=1' : '1=0';
    case 'and':
      return `(${p.items.map((i) => compilePredicate(i, model, alias, params, aliases)).join(' AND ')})`;
    case 'or':
      return `(${p.items.map((i) => compilePredicate(i, model, alias, params, aliases)).join(' OR ')})`;
    case 'not':
      return `(CASE WHEN ${compilePredicate(p.item, model, alias, params, aliases)} THEN 1 ELSE 0 END) = 0`;
    case 'sql':
      return p.build(q(alias), params);
    case 'field': {
      const compareRow = p.field.kind.compareRow;
      if (compareRow) return compareRow(p.field, (c) => `${q(alias)}.${q(c)}`, p.lookup, p.values, params);
      const compare = p.field.kind.compare;
      if (!compare) throw new Error(`${p.field.model.label}.${p.field.name} cannot be filtered`);
      const column = p.field.column ?? (model.pk.column as string);
      return compare(p.field, `${q(alias)}.${q(column)}`, p.lookup, p.values, params);
    }
    case 'json-key':
      return compileJsonKey(p, `${q(alias)}.${q(p.field.column as string)}`, params);
    case 'related': {
      const via = p.via;
      const target = via.target as ModelMeta;
      const sub = aliases.next();
      const link = via.extra.link as LinkSpec | undefined;
      if (link) {
        const lk = aliases.next('lk');
        // Bound before the inner predicate's values: placeholders are positional on SQLite and MySQL.
        const disc = link.discriminator ? ` AND ${q(lk)}.${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}` : '';
        const inner = compilePredicate(p.item, target, sub, params, aliases);
        return `EXISTS (SELECT 1 FROM ${q(link.table)} ${q(lk)} WHERE ${q(lk)}.${q(link.owner)} = ${q(alias)}.${q(model.pk.column as string)}${disc} AND ${q(lk)}.${q(link.target)} IN (SELECT ${q(sub)}.${q(target.pk.column as string)} FROM ${q(target.table)} ${q(sub)} WHERE ${inner}))`;
      }
      const inner = compilePredicate(p.item, target, sub, params, aliases);
      return `${q(alias)}.${q(via.column as string)} IN (SELECT ${q(sub)}.${q(target.pk.column as string)} FROM ${q(target.table)} ${q(sub)} WHERE ${inner})`;
    }
    case 'generic': {
      // Parameters are bound in text order (SQLite and MySQL placeholders are positional).
      const type = `${q(alias)}.${q(p.typeField.column as string)} = ${params.add(p.target.label)}`;
      const sub = aliases.next();
      const inner = compilePredicate(p.item, p.target, sub, params, aliases);
      return `(${type} AND ${q(alias)}.${q(p.idField.column as string)} IN (SELECT ${q(sub)}.${q(p.target.pk.column as string)} FROM ${q(p.target.table)} ${q(sub)} WHERE ${inner}))`;
    }
    case 'exists': {
      const sub = aliases.next();
      return `EXISTS (SELECT 1 FROM ${q(p.model.table)} ${q(sub)} WHERE ${compilePredicate(p.item, p.model, sub, params, aliases)})`;
    }
    case 'pointed-at': {
      const sub = aliases.next();
      // Bound in text order: the type, then the inner predicate's values.
      const type = `${q(sub)}.${q(p.typeField.column as string)} = ${params.add(model.label)}`;
      const inner = compilePredicate(p.item, p.source, sub, params, aliases);
      return `EXISTS (SELECT 1 FROM ${q(p.source.table)} ${q(sub)} WHERE ${type} AND ${q(sub)}.${q(p.idField.column as string)} = ${q(alias)}.${q(model.pk.column as string)} AND ${inner})`;
    }
    case 'reverse-link': {
      // Rows of this model linked from an owner matching `item` through the owner's link table.
      const { model: owner, field } = p.relation;
      const link = field.extra.link as LinkSpec;
      const lk = aliases.next('lk');
      const sub = aliases.next();
      const disc = link.discriminator ? ` AND ${q(lk)}.${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}` : '';
      const inner = compilePredicate(p.item, owner, sub, params, aliases);
      return `EXISTS (SELECT 1 FROM ${q(link.table)} ${q(lk)} WHERE ${q(lk)}.${q(link.target)} = ${q(alias)}.${q(model.pk.column as string)}${disc} AND ${q(lk)}.${q(link.owner)} IN (SELECT ${q(sub)}.${q(owner.pk.column as string)} FROM ${q(owner.table)} ${q(sub)} WHERE ${inner}))`;
    }
    case 'reverse': {
      const { model: child, field } = p.relation;
      const sub = aliases.next();
      const inner = compilePredicate(p.item, child, sub, params, aliases);
      return `EXISTS (SELECT 1 FROM ${q(child.table)} ${q(sub)} WHERE ${q(sub)}.${q(field.column as string)} = ${q(alias)}.${q(model.pk.column as string)} AND ${inner})`;
    }
  }
}

/** Where a many-to-many field keeps its links. */
export interface LinkSpec {
  table: string;
  owner: string;
  target: string;
  /** Generic link tables (tags) hold links of every model, told apart by this column. */
  discriminator?: { column: string; value: string };
  /** Column holding a generated UUID primary key, when the link table has one. */
  idColumn?: string;
}

import type { ModelMeta } from '../metadata/model-meta';
import type { LinkSpec } from '../query/link';
import type { Predicate } from '../query/predicate';
import { compileJsonKey } from './compile-json-key';
import { compareField } from './comparisons/compare-field';
import { TREE_PATH } from '../fields/tree-columns';
import { descendantsOf } from './tree';
import type { Params } from './params';

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
    case 'in-subtree':
      return `${q(alias)}.${q(p.field.column as string)} IN (${descendantsOf(p.field.target as ModelMeta, p.ids, params)})`;
    case 'subtree-of': {
      const roots = aliases.next('n');
      const rootPaths = `SELECT ${q(roots)}.${q(TREE_PATH)} FROM ${q(model.table)} ${q(roots)} WHERE ${compilePredicate(p.roots, model, roots, params, aliases)}`;
      return `EXISTS (SELECT 1 FROM (${rootPaths}) ${q(`${roots}p`)} WHERE ${q(alias)}.${q(TREE_PATH)} LIKE ${params.dialect.concat(`${q(`${roots}p`)}.${q(TREE_PATH)}`, "'%'")})`;
    }
    case 'field':
      return compareField(p.field, model, (c) => `${q(alias)}.${q(c)}`, p.lookup, p.values, params);
    case 'json-key':
      return compileJsonKey(p, `${q(alias)}.${q(p.field.column as string)}`, params);
    case 'related': {
      const via = p.via;
      const target = via.target as ModelMeta;
      const sub = aliases.next();
      const link = via.resolved.link as LinkSpec | undefined;
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
      const link = field.resolved.link as LinkSpec;
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

import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, ModelClass, Thunk } from '../metadata/types';
import { baseInfo } from './common';
import type { FieldKind } from './kind';
import type { LinkSpec } from '../filterset/predicate';

export interface RelatedCountOptions extends FieldOptions {
  target: Thunk<ModelClass>;
  /** Foreign key on the target pointing at this model. */
  via: string;
  /** On tree models: count the rows of the node and of all its descendants. */
  cumulative?: boolean;
}

/**
 * Read-only annotated counts (`site_count`): a correlated subquery in the page's single SELECT.
 * Omitted when the object is nested inside another, as Nautobot does.
 */
export const relatedCountKind: FieldKind & ResolvingKind = {
  name: 'related-count',
  decorate() {
    /* no column */
  },
  resolve(field: FieldMeta, registry: Registry) {
    const o = field.opts<RelatedCountOptions>();
    const target = registry.maybeForClass(o.target());
    if (!target) return; // the counted model is not installed: the count is left out
    const fk = target.field(o.via);
    if (!fk?.column && !fk?.extra.link) throw new Error(`${field.model.label}.${field.name}: ${target.label}.${o.via} is not a foreign key or many-to-many field`);
    if ((fk.extra.link as LinkSpec | undefined)?.discriminator) throw new Error(`${field.model.label}.${field.name}: counts over generic link tables are not supported`);
    field.target = target;
    field.extra.fk = fk;
  },
  column: () => null,
  reader(field, scope, mode) {
    if (mode.nested || !field.target) return null;
    const target = field.target as ModelMeta;
    const fk = field.extra.fk as FieldMeta;
    const q = scope.dialect.quote;
    const cumulative = field.opts<RelatedCountOptions>().cumulative;
    const c = q(`${field.name}_c`);
    const link = fk.extra.link as LinkSpec | undefined;
    const i = scope.expr((alias) => {
      if (link) {
        // Many-to-many (a group's users): rows of the link table pointing at this object.
        return `(SELECT COUNT(*) FROM ${q(link.table)} ${c} WHERE ${c}.${q(link.target)} = ${alias}.${q(scope.model.pk.column as string)})`;
      }
      if (!cumulative) {
        return `(SELECT COUNT(*) FROM ${q(target.table)} ${c} WHERE ${c}.${q(fk.column as string)} = ${alias}.${q(scope.model.pk.column as string)})`;
      }
      const d = q(`${field.name}_d`);
      const path = q('_tree_path');
      return (
        `(SELECT COUNT(*) FROM ${q(target.table)} ${c} WHERE ${c}.${q(fk.column as string)} IN ` +
        `(SELECT ${d}.${q('id')} FROM ${q(scope.model.table)} ${d} WHERE ${d}.${path} LIKE ${scope.dialect.concat(`${alias}.${path}`, "'%'")}))`
      );
    });
    return (row) => Number(row[i] ?? 0);
  },
  info: (field) => baseInfo(field, 'integer'),
  schema: () => ({ type: 'integer', readOnly: true }),
};

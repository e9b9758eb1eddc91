import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, ModelClass, Thunk } from '../metadata/types';
import { baseInfo } from './common';
import type { FieldKind } from './kind';
import type { LinkSpec } from '../query/predicate';

export interface RelatedCountOptions extends FieldOptions {
  target: Thunk<ModelClass>;
  /**
   * Foreign key on the target pointing at this model, or a dotted path of foreign keys ending at
   * it (a site's VMs are counted through `cluster.site`).
   */
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
  annotation: true,
  databaseForm: 'omitted',
  decorate() {
    /* no column */
  },
  resolve(field: FieldMeta, registry: Registry) {
    const o = field.opts<RelatedCountOptions>();
    const target = registry.maybeForClass(o.target());
    if (!target) return; // the counted model is not installed: the count is left out
    // A many-to-many field (a group's users) is counted through its link table.
    const direct = target.field(o.via);
    // A generic relation (an address's assigned_object) is counted by its type and id columns.
    if (direct?.kind.relation === 'generic') {
      field.target = target;
      field.extra.generic = { type: target.field(`${o.via}_type`) as FieldMeta, id: target.field(`${o.via}_id`) as FieldMeta };
      return;
    }
    if (direct?.extra.link) {
      if ((direct.extra.link as LinkSpec).discriminator) throw new Error(`${field.model.label}.${field.name}: counts over generic link tables are not supported`);
      field.target = target;
      field.extra.fk = direct;
      field.extra.hops = [direct];
      return;
    }
    // Hops are checked by name here; their targets are resolved by the time a plan is built.
    const hops: FieldMeta[] = [];
    let model: ModelMeta | undefined = target;
    for (const name of o.via.split('.')) {
      const fk: FieldMeta | undefined = model?.field(name);
      if (!fk?.column) throw new Error(`${field.model.label}.${field.name}: ${o.via} is not a foreign key path of ${target.label}`);
      hops.push(fk);
      const next: Thunk<ModelClass> | undefined = (fk.options as { target?: Thunk<ModelClass> }).target;
      model = next ? registry.maybeForClass(next()) : undefined;
    }
    if (hops.length > 1 && o.cumulative) throw new Error(`${field.model.label}.${field.name}: cumulative counts take one hop`);
    field.target = target;
    field.extra.fk = hops[0];
    field.extra.hops = hops;
  },
  column: () => null,
  reader(field, scope, mode) {
    if (mode.nested || !field.target) return null;
    const target = field.target as ModelMeta;
    const q = scope.dialect.quote;
    const generic = field.extra.generic as { type: FieldMeta; id: FieldMeta } | undefined;
    if (generic) {
      const c = q(`${field.name}_c`);
      // The label is the model's own (registry metadata), never client input.
      const label = `'${scope.model.label.replace(/'/g, "''")}'`;
      const i = scope.expr(
        (alias) =>
          `(SELECT COUNT(*) FROM ${q(target.table)} ${c} WHERE ${c}.${q(generic.type.column as string)} = ${label} AND ${c}.${q(generic.id.column as string)} = ${alias}.${q(scope.model.pk.column as string)})`,
      );
      return (row) => Number(row[i] ?? 0);
    }
    const fk = field.extra.fk as FieldMeta;
    const cumulative = field.opts<RelatedCountOptions>().cumulative;
    const c = q(`${field.name}_c`);
    const hops = field.extra.hops as FieldMeta[];
    const link = fk.extra.link as LinkSpec | undefined;
    const i = scope.expr((alias) => {
      if (link) {
        // Many-to-many: rows of the link table pointing at this object.
        return `(SELECT COUNT(*) FROM ${q(link.table)} ${c} WHERE ${c}.${q(link.target)} = ${alias}.${q(scope.model.pk.column as string)})`;
      }
      if (hops.length > 1) {
        // Innermost: ids of the last hop's model pointing at this row; each outer hop selects by those.
        let ids = `${alias}.${q(scope.model.pk.column as string)}`;
        for (let h = hops.length - 1; h >= 1; h--) {
          const hop = hops[h];
          const a = q(`${field.name}_h${h}`);
          ids = `SELECT ${a}.${q(hop.model.pk.column as string)} FROM ${q(hop.model.table)} ${a} WHERE ${a}.${q(hop.column as string)} ${h === hops.length - 1 ? '=' : 'IN'} (${ids})`;
        }
        return `(SELECT COUNT(*) FROM ${q(target.table)} ${c} WHERE ${c}.${q(fk.column as string)} IN (${ids}))`;
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

import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, ModelClass, Thunk } from '../metadata/types';
import { baseInfo } from './common';
import type { FieldKind } from './kind';
import type { CountSpec } from './kind';
import type { LinkSpec } from '../query/link';

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

/** What the field counts, from what `resolve` found. */
function countOf(field: FieldMeta): CountSpec {
  const target = field.target as ModelMeta;
  const generic = field.resolved.generic as { type: FieldMeta; id: FieldMeta } | undefined;
  if (generic) return { kind: 'generic', name: field.name, target, type: generic.type, id: generic.id };
  const fk = field.resolved.fk as FieldMeta;
  const link = fk.resolved.link as LinkSpec | undefined;
  if (link) return { kind: 'links', name: field.name, link };
  const subtree = field.opts<RelatedCountOptions>().cumulative === true;
  return { kind: 'path', name: field.name, target, hops: field.resolved.hops as FieldMeta[], subtree };
}

/**
 * Read-only annotated counts (`site_count`): a correlated subquery in the page's single query.
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
      field.resolved.generic = { type: target.field(`${o.via}_type`) as FieldMeta, id: target.field(`${o.via}_id`) as FieldMeta };
      return;
    }
    if (direct?.resolved.link) {
      if ((direct.resolved.link as LinkSpec).discriminator) throw new Error(`${field.model.label}.${field.name}: counts over generic link tables are not supported`);
      field.target = target;
      field.resolved.fk = direct;
      field.resolved.hops = [direct];
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
    field.resolved.fk = hops[0];
    field.resolved.hops = hops;
  },
  column: () => null,
  reader(field, scope, mode) {
    if (mode.nested || !field.target) return null;
    const i = scope.count(countOf(field));
    return (row) => Number(row[i] ?? 0);
  },
  info: (field) => baseInfo(field, 'integer'),
  schema: () => ({ type: 'integer', readOnly: true }),
};

declare module '../metadata/model-meta' {
  interface ResolvedField {
    /** Annotated counts: the path of foreign keys counted along, or the generic relation counted. */
    fk?: FieldMeta;
    hops?: FieldMeta[];
    generic?: { type: FieldMeta; id: FieldMeta };
  }
}

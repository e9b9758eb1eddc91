import {
  and,
  BaseModel,
  ChoiceField,
  ContentTypeField,
  defineChoices,
  FALSE,
  Field,
  filterQuery,
  filterSetFor,
  ForeignKey,
  Model,
  not,
  NotesUrl,
  or,
  OrganizationalModel,
  ProtectedError,
  ReverseList,
  Store,
  ValidationError,
  type ChoiceValue,
  type Executor,
  type Id,
  type ModelMeta,
  type Predicate,
  type Registry,
  type Values,
  type WriteContext,
} from '../../framework';

/** Nautobot's DynamicGroupOperatorChoices. */
export const DynamicGroupOperator = defineChoices({ union: 'Include (OR)', intersection: 'Restrict (AND)', difference: 'Exclude (NOT)' });
export type DynamicGroupOperator = ChoiceValue<typeof DynamicGroupOperator>;

/**
 * A group of objects of one model whose members are computed at read time: from a stored filter
 * (parameters of the model's REST filter set, run by the same filter engine as its list endpoint)
 * or, for a group with children, from its memberships' sets combined in weight order.
 */
@Model({
  path: 'dynamic-groups',
  display: 'name',
  brief: ['name', 'slug', 'content_type'],
  ordering: ['content_type', 'name'],
  search: ['name', 'slug', 'description', 'content_type'],
})
export class DynamicGroup extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ContentTypeField({ forFeature: 'dynamic_groups', single: true })
  content_type!: string;

  /** Parameters of the content type's filter set, validated by running them. */
  @Field.JSON({ required: true, nullable: false, lookups: false, help: 'A JSON-encoded dictionary of filter parameters for group membership' })
  filter!: Record<string, unknown>;

  /** The group's memberships as a parent; written at /api/extras/dynamic-group-memberships/. */
  @ReverseList(() => DynamicGroupMembership, 'parent_group')
  children!: unknown[];

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (wc.current && values.content_type !== wc.current.content_type) {
      throw new ValidationError({ content_type: ['ContentType cannot be changed once created'] });
    }
    const filter = values.filter;
    if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw new ValidationError({ filter: ['Filter must be a dict'] });
    const model = wc.registry.get(values.content_type as string);
    if (!model) return;
    // Unknown names and bad values come back as the list endpoint reports them, one key per filter.
    await filterSetFor(model).parse(filterQuery(filter as Record<string, unknown>), { db: wc.tx }, true);
  }

  /**
   * A child group cannot go while a parent holds it: 409 naming the parents, as Nautobot's
   * protected membership does. The memberships of a deleted parent go with it.
   */
  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    const gone = new Set(ids);
    const held = (await wc.store.find(DynamicGroupMembership, { group__in: ids })).filter((m) => !gone.has(m.parent_group as Id));
    if (held.length === 0) return;
    const parents = [...new Set(held.map((m) => m.parent_group as Id))];
    const rows = await wc.store.find(DynamicGroup, parents);
    throw new ProtectedError(rows.map((r) => ({ display: String(r.name), id: r.id as string })));
  }
}

/** One group placed inside another with a set operator; applied in ascending weight. */
@Model({
  path: 'dynamic-group-memberships',
  display: {
    fields: ['parent_group.name', 'operator', 'weight', 'group.name'],
    render: (v) => `${String(v['parent_group.name'])} > ${String(v.operator)} (${String(v.weight)}) > ${String(v['group.name'])}`,
  },
  brief: ['group', 'parent_group', 'operator', 'weight'],
  ordering: ['parent_group', 'weight', 'group'],
  search: ['operator', 'group.name', 'group.slug', 'parent_group.name', 'parent_group.slug'],
  uniqueTogether: [['group', 'parent_group', 'operator', 'weight']],
  graphql: false,
})
export class DynamicGroupMembership extends BaseModel {
  /** Deleting the child is refused by DynamicGroup.beforeDelete (409 naming the parents). */
  @ForeignKey(() => DynamicGroup, { onDelete: 'cascade', related: 'dynamic_group_memberships', naturalKey: 'slug', idFilter: false })
  group!: DynamicGroup;

  @ForeignKey(() => DynamicGroup, { onDelete: 'cascade', related: 'dynamic_group_parents', naturalKey: 'slug', idFilter: false })
  parent_group!: DynamicGroup;

  @ChoiceField(DynamicGroupOperator, { plain: true, single: true })
  operator!: DynamicGroupOperator;

  @Field.Integer({ min: 0, max: 32767 })
  weight!: number;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const parent = await wc.store.get(DynamicGroup, values.parent_group as Id);
    const child = await wc.store.get(DynamicGroup, values.group as Id);
    if (!parent || !child) return;
    const filter = parent.filter as Record<string, unknown> | null;
    if (filter && Object.keys(filter).length > 0) {
      throw new ValidationError({ parent_group: ['A parent group may have either a filter or child groups, but not both. Clear the parent filter and try again.'] });
    }
    if (parent.content_type !== child.content_type) throw new ValidationError({ group: ['ContentType for group and parent_group must match'] });
    if (parent.id === child.id) throw new ValidationError({ group: ['Cannot add group as a child of itself'] });
    if ((await ancestorsOf(wc.store, parent.id as Id)).has(child.id as Id)) throw new ValidationError({ group: ['Cannot add ancestor as a child'] });
  }
}

/** Every group above `id` through memberships (parents, their parents…). */
async function ancestorsOf(store: Store, id: Id): Promise<Set<Id>> {
  const seen = new Set<Id>();
  let frontier: Id[] = [id];
  while (frontier.length) {
    const rows = await store.find(DynamicGroupMembership, { group__in: frontier });
    frontier = [];
    for (const r of rows) {
      const p = r.parent_group as Id;
      if (!seen.has(p)) {
        seen.add(p);
        frontier.push(p);
      }
    }
  }
  return seen;
}

/**
 * A stored filter as a condition. A filter holding a value that stopped being valid since the
 * group was saved (a site since deleted) selects nothing: a stale group never widens to every
 * object, and never breaks the lists that render config contexts.
 */
async function storedFilter(db: Executor, model: ModelMeta, filter: Record<string, unknown>): Promise<Predicate> {
  try {
    return await filterSetFor(model).parse(filterQuery(filter), { db }, false);
  } catch (err) {
    if (err instanceof ValidationError) return FALSE;
    throw err;
  }
}

/**
 * The condition selecting a group's members, read live. A group without children is its filter
 * run through the model's filter set; a group with children starts from an empty condition and
 * folds in each membership by ascending weight (then child) — union: OR, intersection: AND,
 * difference: AND NOT — so the first membership decides (a first difference means "all but");
 * the result then applies to the group's own (empty) filter.
 */
export async function memberCondition(db: Executor, registry: Registry, group: Values, path: Set<Id> = new Set()): Promise<Predicate> {
  const model = registry.get(group.content_type as string) as ModelMeta;
  const own = await storedFilter(db, model, (group.filter ?? {}) as Record<string, unknown>);
  const store = new Store(db, registry);
  const memberships = await store.find(DynamicGroupMembership, { parent_group: group.id });
  if (memberships.length === 0) return own;
  const children = new Map((await store.find(DynamicGroup, memberships.map((m) => m.group as Id))).map((g) => [g.id as Id, g]));
  memberships.sort((a, b) => (a.weight as number) - (b.weight as number) || String(children.get(a.group as Id)?.name).localeCompare(String(children.get(b.group as Id)?.name)));
  const inner = new Set(path).add(group.id as Id);
  let combined: Predicate | null = null;
  for (const m of memberships) {
    const child = children.get(m.group as Id);
    // Validation refuses loops; a loop written around it contributes nothing rather than recursing forever.
    if (!child || inner.has(child.id as Id)) continue;
    const condition = await memberCondition(db, registry, child, inner);
    const op = m.operator as DynamicGroupOperator;
    if (combined === null) combined = op === 'difference' ? not(condition) : condition;
    else if (op === 'union') combined = or([combined, condition]);
    else if (op === 'intersection') combined = and([combined, condition]);
    else combined = and([combined, not(condition)]);
  }
  return combined === null ? own : and([own, combined]);
}

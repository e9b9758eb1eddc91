import {
  Store,
  canonicalUuid,
  FieldError,
  fieldTest,
  FilterValueError,
  matchingIds,
  nestedObjects,
  ormFilter,
  or,
  pyRepr,
  pyTypeName,
  resolveRelated,
  TRUE,
  ValidationError,
  and,
  type ComputedProvider,
  type Executor,
  type FeatureProvider,
  type FeatureGraphQLField,
  type GraphQLFeature,
  type FilterDef,
  type Id,
  type Json,
  type JsonObject,
  type ModelMeta,
  type Registry,
  type RenderContext,
  type Values,
  type WriteContext,
  type RequestData,
  DataKey,
  CachedConfig,
  cachedConfig,
} from '../../framework';
import { Relationship, RelationshipAssociation } from './relationship';
import { classLabel, relationshipDisplay, SYMMETRIC_TYPES } from './relationship-rules';

/** The side an object is on in an association. */
type Side = 'source' | 'destination' | 'peer';

const OPPOSITE: Record<Side, Side> = { source: 'destination', destination: 'source', peer: 'peer' };

/** A relationship definition as one request uses it. */
interface Rel {
  id: string;
  name: string;
  slug: string;
  display: string;
  type: string;
  symmetric: boolean;
  required_on: string;
  source_type: string;
  source_label: string;
  source_hidden: boolean;
  source_filter: JsonObject | null;
  destination_type: string;
  destination_label: string;
  destination_hidden: boolean;
  destination_filter: JsonObject | null;
}

const RELATIONSHIPS = new DataKey<Rel[]>('extras.relationships');
/** The definitions between requests (associations are read per request, not cached). */
const RELATIONSHIPS_CACHE = new CachedConfig<Rel[]>('extras.relationships', ['extras_relationship']);

function toRel(v: Values): Rel {
  const filter = (f: unknown) => (f && typeof f === 'object' && !Array.isArray(f) && Object.keys(f).length ? (f as JsonObject) : null);
  return {
    id: String(v.id),
    name: String(v.name),
    slug: String(v.slug),
    display: relationshipDisplay(String(v.name)),
    type: String(v.type),
    symmetric: SYMMETRIC_TYPES.has(String(v.type)),
    required_on: String(v.required_on ?? ''),
    source_type: String(v.source_type),
    source_label: String(v.source_label ?? ''),
    source_hidden: v.source_hidden === true,
    source_filter: filter(v.source_filter),
    destination_type: String(v.destination_type),
    destination_label: String(v.destination_label ?? ''),
    destination_hidden: v.destination_hidden === true,
    destination_filter: filter(v.destination_filter),
  };
}

function relsIn(features: RequestData): Rel[] {
  return (features.get(RELATIONSHIPS)) ?? [];
}

/** The definitions, loaded on first use in a request: reads need them only when asked for. */
async function loaded(db: Executor, features: RequestData, registry: Registry): Promise<Rel[]> {
  if (!features.has(RELATIONSHIPS)) {
    const rels = await cachedConfig(db, RELATIONSHIPS_CACHE, async () => {
      const rows = await new Store(db).find(registry.forClass(Relationship), TRUE);
      rows.sort((a, b) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0));
      return rows.map(toRel);
    });
    features.set(RELATIONSHIPS, rels);
  }
  return relsIn(features);
}

/** The sides an object of `label` can be on in `rel` (both, for a non-symmetric self relationship). */
function sidesOf(rel: Rel, label: string): Side[] {
  if (rel.symmetric) return rel.source_type === label ? ['peer'] : [];
  const sides: Side[] = [];
  if (rel.source_type === label) sides.push('source');
  if (rel.destination_type === label) sides.push('destination');
  return sides;
}

/** Whether the objects on `side` may be several for one object on the other side. */
function hasMany(rel: Rel, side: Side): boolean {
  if (rel.type === 'many-to-many' || rel.type === 'symmetric-many-to-many') return true;
  if (rel.type === 'one-to-many') return side === 'destination';
  return false;
}

function typeOf(rel: Rel, side: Side): string {
  return side === 'destination' ? rel.destination_type : rel.source_type;
}

function filterOf(rel: Rel, side: Side): JsonObject | null {
  return side === 'destination' ? rel.destination_filter : rel.source_filter;
}

/** The caption an object on `side` shows for its peers (Nautobot's Relationship.get_label). */
function labelFor(rel: Rel, side: Side, registry: Registry): string {
  const peerSide = OPPOSITE[side];
  const own = side === 'destination' ? rel.destination_label : rel.source_label;
  if (own) return own;
  const peer = registry.get(typeOf(rel, peerSide));
  if (!peer) return typeOf(rel, peerSide);
  return hasMany(rel, peerSide) ? peer.verboseNamePlural : peer.verboseName;
}

/** The peer end of an association seen from an object on `side`. */
function peerOf(assoc: Values, side: Side, id: Id): Id {
  if (side === 'source') return assoc.destination_id as Id;
  if (side === 'destination') return assoc.source_id as Id;
  return (assoc.source_id === id ? assoc.destination_id : assoc.source_id) as Id;
}

function holds(assoc: Values, rel: Rel, side: Side, label: string, id: Id): boolean {
  if (assoc.relationship !== rel.id) return false;
  const asSource = assoc.source_type === label && assoc.source_id === id;
  const asDestination = assoc.destination_type === label && assoc.destination_id === id;
  return side === 'source' ? asSource : side === 'destination' ? asDestination : asSource || asDestination;
}

/** Associations of any of `rels` having one of `ids` (of `label`) at either end: one query. */
async function associationsOf(db: Executor, registry: Registry, rels: Rel[], label: string, ids: Id[]): Promise<Values[]> {
  if (rels.length === 0 || ids.length === 0) return [];
  const model = registry.forClass(RelationshipAssociation);
  return new Store(db).find(model, and([
      ormFilter(model, { relationship__in: rels.map((r) => r.id) }),
      or([ormFilter(model, { source_type: label, source_id__in: ids }), ormFilter(model, { destination_type: label, destination_id__in: ids })]),
    ]));
}

// -- the relationships block -------------------------------------------------------------------

/**
 * The objects among `ids` a side filter admits. A filter that no longer validates (it names an
 * object deleted since it was saved) admits none; a query that fails is not an answer and
 * propagates (a 500 with its cause logged).
 */
async function admittedBy(db: Executor, model: ModelMeta, filter: JsonObject, ids: Id[]): Promise<Set<Id>> {
  try {
    return await matchingIds(db, model, filter, ids);
  } catch (err) {
    if (err instanceof ValidationError) return new Set<Id>();
    throw err;
  }
}

async function loadBlocks(model: ModelMeta, ids: Id[], rc: RenderContext): Promise<Map<Id, Json>> {
  const registry = model.registry as Registry;
  const label = model.label;
  const rels = (await loaded(rc.db, rc.features, registry)).filter((r) => sidesOf(r, label).length > 0);
  const out = new Map<Id, Json>();
  if (rels.length === 0) return out;
  const associations = await associationsOf(rc.db, registry, rels, label, ids);

  // Objects outside a side filter do not show that side: one query per filtered side.
  const admitted = new Map<string, Set<Id>>();
  for (const rel of rels) {
    for (const side of sidesOf(rel, label)) {
      const filter = filterOf(rel, side);
      if (filter) admitted.set(`${rel.id}:${side}`, await admittedBy(rc.db, model, filter, ids));
    }
  }

  // Nested forms of every peer on the page: one query per peer model.
  const wanted = new Map<string, Set<Id>>();
  for (const rel of rels) {
    for (const side of sidesOf(rel, label)) {
      const peerType = typeOf(rel, OPPOSITE[side]);
      for (const a of associations) {
        for (const id of ids) if (holds(a, rel, side, label, id)) wanted.set(peerType, (wanted.get(peerType) ?? new Set()).add(peerOf(a, side, id)));
      }
    }
  }
  const nested = new Map<string, Map<Id, JsonObject>>();
  for (const [type, peerIds] of wanted) {
    const peerModel = registry.get(type);
    if (!peerModel) continue;
    nested.set(
      type,
      peerModel.path === null ? new Map([...peerIds].map((id) => [id, { id } as JsonObject])) : await nestedObjects(peerModel, [...peerIds], rc),
    );
  }

  for (const id of ids) {
    const block: JsonObject = {};
    // Nautobot lists the relationships an object is the source of, then destination, then peer.
    for (const side of ['source', 'destination', 'peer'] as const) {
      for (const rel of rels) {
        if (!sidesOf(rel, label).includes(side)) continue;
        const allowed = admitted.get(`${rel.id}:${side}`);
        if (allowed && !allowed.has(id)) continue;
        const peerType = typeOf(rel, OPPOSITE[side]);
        const objects: JsonObject[] = [];
        const seen = new Set<Id>();
        for (const a of associations) {
          if (!holds(a, rel, side, label, id)) continue;
          const peer = peerOf(a, side, id);
          const obj = nested.get(peerType)?.get(peer);
          if (obj && !seen.has(peer)) objects.push(obj);
          seen.add(peer);
        }
        const entry = (block[rel.slug] ??= {
          id: rel.id,
          url: `${rc.baseUrl}/api/extras/relationships/${rel.id}/`,
          name: rel.name,
          type: rel.type,
        }) as JsonObject;
        entry[OPPOSITE[side]] = { label: labelFor(rel, side, registry), object_type: peerType, objects };
      }
    }
    out.set(id, block);
  }
  return out;
}

// -- writes --------------------------------------------------------------------------------------

/** What a `relationships` key asks for: per relationship and peer side, the complete peer set. */
interface Change {
  rel: Rel;
  /** The object's own side. */
  side: Side;
  peers: Id[];
}

function structural(message: string): FieldError {
  return new FieldError(message);
}

async function parseChanges(model: ModelMeta, input: unknown, wc: WriteContext): Promise<Change[]> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw structural(`Expected a dictionary of items but got type "${pyTypeName(input)}".`);
  }
  const rels = (await loaded(wc.tx, wc.features, wc.registry)).filter((r) => sidesOf(r, model.label).length > 0);
  const changes: Change[] = [];
  for (const [slug, sides] of Object.entries(input as Record<string, unknown>)) {
    const rel = rels.find((r) => r.slug === slug);
    if (!rel) throw structural(`"${slug}" is not a relationship on ${classLabel(model)}`);
    if (sides === null || typeof sides !== 'object' || Array.isArray(sides)) {
      throw structural(`Expected a dictionary of items but got type "${pyTypeName(sides)}".`);
    }
    for (const [peerSide, content] of Object.entries(sides as Record<string, unknown>)) {
      const side = (Object.keys(OPPOSITE) as Side[]).find((s) => OPPOSITE[s] === peerSide && sidesOf(rel, model.label).includes(s));
      if (!side) throw structural(`"${peerSide}" is not a valid side for "${rel.display}" on ${classLabel(model)}`);
      if (content === null || typeof content !== 'object' || Array.isArray(content) || !('objects' in content)) {
        throw structural(`"objects" must be specified under ["${slug}"]["${peerSide}"] when present`);
      }
      const objects = (content as { objects: unknown }).objects;
      if (!Array.isArray(objects)) throw structural('"objects" must be a list, not a single value');
      if (objects.length > 1 && !hasMany(rel, OPPOSITE[side])) {
        throw structural(`For "${rel.display}", "${peerSide}" objects must include at most a single object`);
      }
      const peerModel = wc.registry.get(typeOf(rel, OPPOSITE[side]));
      if (!peerModel) continue;
      const peers: Id[] = [];
      for (const item of objects) peers.push((await resolveRelated(peerModel, item, wc, false)) as Id);
      changes.push({ rel, side, peers: [...new Set(peers)] });
    }
  }
  return changes;
}

/** `required_on`: the object's side must end up with at least one peer. */
async function checkRequired(model: ModelMeta, changes: Change[] | undefined, wc: WriteContext): Promise<void> {
  const rels = (await loaded(wc.tx, wc.features, wc.registry)).filter((r) => r.required_on && !r.symmetric);
  const errors: Record<string, string[]> = {};
  for (const rel of rels) {
    const side = rel.required_on as Side;
    if (typeOf(rel, side) !== model.label) continue;
    const change = changes?.find((c) => c.rel.id === rel.id && c.side === side);
    let satisfied: boolean;
    if (change) satisfied = change.peers.length > 0;
    else if (wc.creating) satisfied = false;
    else {
      // An update that leaves this relationship alone keeps what the object already has.
      const existing = await wc.store.find(RelationshipAssociation, { relationship: rel.id, [`${side}_type`]: model.label, [`${side}_id`]: wc.id });
      satisfied = existing.length > 0;
    }
    if (satisfied) continue;
    const peerSide = OPPOSITE[side];
    const messages = [`You need to specify ["relationships"]["${rel.slug}"]["${peerSide}"]["objects"].`];
    const peerModel = wc.registry.get(typeOf(rel, peerSide));
    if (peerModel && (await new Store(wc.tx).count(peerModel, TRUE)) === 0) {
      const plural = model.verboseNamePlural;
      messages.push(
        `${plural.charAt(0).toUpperCase()}${plural.slice(1)} require a ${peerModel.verboseName}, but no ${peerModel.verboseNamePlural} exist yet. ` +
          `Create a ${peerModel.verboseName} by posting to ${peerModel.listPath}`,
      );
    }
    errors[rel.slug] = messages;
  }
  if (Object.keys(errors).length) throw new ValidationError({ relationships: errors });
}

/** Replaces the peer set of each changed side: removals first, then validated creations. */
async function applyChanges(model: ModelMeta, id: Id, changes: Change[], wc: WriteContext): Promise<void> {
  const label = model.label;
  const creations: Array<Record<string, unknown>> = [];
  for (const { rel, side, peers } of changes) {
    const existing = (await associationsOf(wc.tx, wc.registry, [rel], label, [id])).filter((a) => holds(a, rel, side, label, id));
    const wanted = new Set(peers);
    const stale = existing.filter((a) => !wanted.has(peerOf(a, side, id))).map((a) => a.id as Id);
    if (stale.length) await wc.remove(RelationshipAssociation, stale);
    const kept = new Set(existing.map((a) => peerOf(a, side, id)));
    for (const peer of peers) {
      if (kept.has(peer)) continue;
      const asDestination = side === 'destination';
      creations.push({
        relationship: rel.id,
        source_type: rel.source_type,
        source_id: asDestination ? peer : id,
        destination_type: rel.destination_type,
        destination_id: asDestination ? id : peer,
      });
    }
  }
  for (const body of creations) {
    try {
      await wc.create(RelationshipAssociation, body);
    } catch (err) {
      // Save-time problems come back under `relationships`, as the text of the association's error.
      if (err instanceof ValidationError) throw new ValidationError({ relationships: [Array.isArray(err.detail) ? pyRepr(err.detail) : pyRepr(err.detail as Json)] });
      throw err;
    }
  }
}

// -- cr_<slug>__<side> filters ------------------------------------------------------------------

function relationshipFilter(model: ModelMeta, rel: Rel, side: Side, name: string): FilterDef {
  const peerSide = OPPOSITE[side];
  return {
    name,
    multiple: 'or',
    type: 'uuid',
    async build(values, fc) {
      const registry = model.registry as Registry;
      const peerModel = registry.get(typeOf(rel, peerSide));
      const peers: Id[] = [];
      for (const raw of values) {
        const id = canonicalUuid(raw);
        if (!id) throw new FilterValueError(`Select a valid choice. ${raw} is not one of the available choices.`);
        peers.push(id);
      }
      const found = peerModel ? new Set((await new Store(fc.db).find(peerModel, peers)).map((v) => v.id)) : new Set();
      const missing = values.find((_raw, i) => !found.has(peers[i]));
      if (missing !== undefined) throw new FilterValueError(`Select a valid choice. ${missing} is not one of the available choices.`);
      const assoc = registry.forClass(RelationshipAssociation);
      const peerType = typeOf(rel, peerSide);
      const rows = await new Store(fc.db).find(assoc, and([
          ormFilter(assoc, { relationship: rel.id }),
          side === 'peer'
            ? or([ormFilter(assoc, { source_id__in: peers }), ormFilter(assoc, { destination_id__in: peers })])
            : ormFilter(assoc, { [`${peerSide}_type`]: peerType, [`${peerSide}_id__in`]: peers }),
        ]));
      const own = new Set<Id>();
      for (const a of rows) {
        if (side === 'peer') {
          if (peers.includes(a.source_id as Id)) own.add(a.destination_id as Id);
          if (peers.includes(a.destination_id as Id)) own.add(a.source_id as Id);
        } else {
          own.add(a[`${side}_id`] as Id);
        }
      }
      return fieldTest(model.pk, 'exact', [...own]);
    },
  };
}

// -- the provider --------------------------------------------------------------------------------

/**
 * `rel_<slug>`: the peers of an object in each relationship it takes part in, as the REST block
 * lists them; an object when the peer side holds one, a list when several. A non-symmetric
 * relationship between objects of one model gives `rel_<slug>_source` and `rel_<slug>_destination`,
 * named after the side the returned objects are on.
 */
async function graphqlFields(model: ModelMeta, db: Executor, features: RequestData, registry: Registry): Promise<FeatureGraphQLField[]> {
  const out: FeatureGraphQLField[] = [];
  for (const rel of await loaded(db, features, registry)) {
    const sides = sidesOf(rel, model.label);
    for (const side of sides) {
      const peerSide = OPPOSITE[side];
      const many = hasMany(rel, peerSide);
      const target = typeOf(rel, peerSide);
      out.push({
        name: sides.length > 1 ? `rel_${rel.slug}_${peerSide}` : `rel_${rel.slug}`,
        type: many ? 'object-list' : 'object',
        target,
        read(obj) {
          const block = ((obj.rest.relationships as JsonObject | null | undefined) ?? {})[rel.slug] as JsonObject | undefined;
          const objects = ((block?.[peerSide] as JsonObject | undefined)?.objects as JsonObject[] | undefined) ?? [];
          const ids = objects.map((o) => o.id as Json);
          return many ? ids : (ids[0] ?? null);
        },
      });
    }
  }
  return out;
}

export const provider: FeatureProvider & ComputedProvider & GraphQLFeature = {
  filterPrefix: 'cr_',
  graphqlFields,

  async prepareFilters(db, features, registry) {
    await loaded(db, features, registry);
  },

  load: loadBlocks,

  async parse(model, input, wc) {
    return parseChanges(model, input, wc);
  },

  async validate(model, value, wc) {
    await checkRequired(model, value as Change[] | undefined, wc);
  },

  async write(model, id, value, wc) {
    await applyChanges(model, id, value as Change[], wc);
  },

  /** Associations of deleted objects go with them (their ends are not foreign keys). */
  async removed(model, ids, wc) {
    const a = await wc.store.find(RelationshipAssociation, { source_type: model.label, source_id__in: ids });
    const b = await wc.store.find(RelationshipAssociation, { destination_type: model.label, destination_id__in: ids });
    const doomed = [...new Set([...a, ...b].map((v) => v.id as Id))];
    if (doomed.length) await wc.remove(RelationshipAssociation, doomed);
  },

  /** `cr_<slug>__<peer side>` for each relationship touching the model; `filter` drops hidden sides. */
  filterNames(model, features) {
    return relsIn(features).flatMap((rel) => sidesOf(rel, model.label).map((side) => `cr_${rel.slug}__${OPPOSITE[side]}`));
  },

  filter(model, name, features) {
    const m = /^cr_(.+)__(source|destination|peer)$/.exec(name);
    if (!m) return undefined;
    const [, slug, peerSide] = m;
    const rel = relsIn(features).find((r) => r.slug === slug);
    if (!rel) return undefined;
    const side = OPPOSITE[peerSide as Side];
    if (!sidesOf(rel, model.label).includes(side)) return undefined;
    // Hidden on the object's side: no filter (Nautobot's RelationshipModelFilterSetMixin).
    const hidden = side === 'destination' ? rel.destination_hidden : rel.source_hidden;
    if (hidden) return undefined;
    return relationshipFilter(model, rel, side, name);
  },
};

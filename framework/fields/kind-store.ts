import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';

/** A choice that lives in the database (statuses), as OPTIONS lists it. */
export interface StoredChoice {
  value: string;
  display: string;
}

/**
 * What kinds ask of the database while parsing, writing and describing values, each method named
 * for what it computes. framework/store/kind-store.ts implements it; kinds see neither SQL nor a
 * connection.
 */
export interface KindStore {
  /** Whether `model` has a row with this id. */
  exists(model: ModelMeta, id: Id): Promise<boolean>;
  /** Ids of the rows of `model` matching Django-style attributes (`{ vm_role: true }`), at most `limit`. */
  idsMatching(model: ModelMeta, attributes: Record<string, unknown>, limit: number): Promise<Id[]>;
  /** Id of a row of `model` whose `field` equals `value`, or null. */
  idWith(model: ModelMeta, field: FieldMeta, value: unknown): Promise<Id | null>;
  /** The ids among `ids` whose content-type list `field` names the content type `label`. */
  idsForContentType(model: ModelMeta, field: FieldMeta, ids: Id[], label: string): Promise<Id[]>;
  /** The status (of model `statuses`) with this slug, when it is enabled for the content type `label`. */
  statusFor(statuses: ModelMeta, slug: string, label: string): Promise<Id | null>;
  /** The statuses (of model `statuses`) enabled for the content type `label`, by name. */
  statusesFor(statuses: ModelMeta, label: string): Promise<StoredChoice[]>;
  /** Values of `field` equal to `value` or starting with `value-`, held by rows other than `exceptId`. */
  takenValues(field: FieldMeta, value: string, exceptId: Id): Promise<string[]>;
  /** The targets each owner is linked to through a many-to-many field; every owner has an entry. */
  linkedIds(field: FieldMeta, ownerIds: Id[]): Promise<Map<Id, Id[]>>;
  /** Links the owner to exactly `targets` through a many-to-many field; a created owner has no links yet. */
  replaceLinks(field: FieldMeta, ownerId: Id, targets: Id[], created: boolean): Promise<void>;
  /**
   * Recomputes a tree node's path, sort key and depth from its parent (`parent` is the model's
   * tree-parent field), and those of its subtree when it moved; a node made its own descendant is
   * a ValidationError.
   */
  placeTreeNode(parent: FieldMeta, id: Id): Promise<void>;
}

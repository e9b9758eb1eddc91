import { Index } from 'typeorm';
import type { FieldKind } from '../fields/kind';
import { booleanKind } from '../fields/boolean';
import { choiceKind, type ChoiceOptions, type ChoiceSet } from '../fields/choice';
import { contentTypesKind, type ContentTypesOptions } from '../fields/content-types';
import { customFieldsKind } from '../fields/custom-fields';
import { computedKind, type ComputedOptions } from '../fields/computed';
import { contentTypeKind, type ContentTypeOptions } from '../fields/content-type';
import { imageFileKind } from '../fields/image-file';
import { notesUrlKind } from '../fields/notes-url';
import { TAIL_RANK } from '../metadata/model-meta';
import { dateKind, dateTimeKind, type DateOptions } from '../fields/date';
import { decimalKind, type DecimalOptions } from '../fields/decimal';
import { foreignKeyKind, type ForeignKeyOptions } from '../fields/foreign-key';
import { integerKind, type IntegerOptions } from '../fields/integer';
import { jsonKind, type JsonOptions } from '../fields/json';
import { macAddressKind } from '../fields/mac-address';
import { multipleChoiceKind, type MultipleChoiceOptions } from '../fields/multiple-choice';
import { integerArrayKind, type IntegerArrayOptions } from '../fields/integer-array';
import { relatedViaKind, type RelatedViaOptions } from '../fields/related-via';
import { manyToManyKind, type ManyToManyOptions } from '../fields/many-to-many';
import { relatedCountKind, type RelatedCountOptions } from '../fields/related-count';
import { statusKind, type StatusOptions } from '../fields/status';
import { slugKind, stringKind, textKind, type SlugOptions, type StringOptions } from '../fields/string';
import { TREE_DISPLAY, treeDepthKind, treeParentKind, type TreeDepthOptions, type TreeParentOptions } from '../fields/tree';
import { uuidKind, type UuidOptions } from '../fields/uuid';
import { hiddenKind, type HiddenOptions } from '../fields/hidden';
import { timeZoneKind } from '../fields/timezone';
import { passwordKind } from '../fields/password';
import { ipFamilyKind, networkKind, type NetworkRole } from '../fields/network';
import { genericIdKind, genericObjectKind, genericTypeKind, type GenericForeignKeyOptions } from '../fields/generic-foreign-key';
import { reverseListKind, type ReverseListOptions } from '../fields/reverse-list';
import { reverseOneKind, type ReverseOneOptions } from '../fields/reverse-one';
import { integerPkKind } from '../fields/integer-pk';
import { firstOfKind } from '../fields/first-of';
import { naturalize } from '../fields/string';
import { recordField, recordFilter, recordModel } from '../metadata/storage';
import type { FieldOptions, ModelClass, ModelOptions, NamedFilterOptions, Thunk } from '../metadata/types';

/** Records a field of `kind` and lets the kind apply its TypeORM/class-validator decorators. */
export function declareField(kind: FieldKind, options: object = {}): PropertyDecorator {
  return (proto, property) => {
    const name = String(property);
    kind.decorate(proto, name, options);
    recordField((proto as { constructor: Function }).constructor, { property: name, kind, options: options as FieldOptions });
  };
}

/** Declares a model class: its endpoint path, display, brief form and ordering. */
export function Model(options: ModelOptions): ClassDecorator {
  return (cls) => {
    recordModel(cls, options);
    if (options.name) Object.defineProperty(cls, 'netinvModelName', { value: options.name });
  };
}

/** Plain columns. */
export const Field = {
  /** An uploaded image file, stored under the media directory and read as its URL. */
  Image: (o: FieldOptions = {}) => declareField(imageFileKind, { required: true, ...o }),
  String: (o: StringOptions & { maxLength: number }) => declareField(stringKind, o),
  Text: (o: StringOptions = {}) => declareField(textKind, { blank: true, ...o }),
  Slug: (o: SlugOptions = {}) => declareField(slugKind, { maxLength: 100, unique: true, required: o.from ? false : undefined, ...o }),
  Email: (o: StringOptions = {}) => declareField(stringKind, { maxLength: 254, blank: true, ...o, format: 'email' }),
  Url: (o: StringOptions = {}) => declareField(stringKind, { maxLength: 200, blank: true, ...o, format: 'url' }),
  Integer: (o: IntegerOptions = {}) => declareField(integerKind, o),
  Decimal: (o: DecimalOptions) => declareField(decimalKind, o),
  Boolean: (o: FieldOptions = {}) => declareField(booleanKind, { required: false, ...o }),
  Date: (o: DateOptions = {}) => declareField(dateKind, o),
  DateTime: (o: DateOptions = {}) => declareField(dateTimeKind, o),
  UUID: (o: UuidOptions = {}) => declareField(uuidKind, o),
  JSON: (o: JsonOptions = {}) => declareField(jsonKind, { nullable: true, required: false, ...o }),
  /** A list of integers (service ports); each item within `min`..`max`. */
  IntegerArray: (o: IntegerArrayOptions = {}) => declareField(integerArrayKind, { lookups: false, ...o }),
};

/** A fixed choice set: `{value, label}` on read, the bare value on write. */
export function ChoiceField(choices: ChoiceSet, options: Omit<ChoiceOptions, 'choices'> = {}): PropertyDecorator {
  return declareField(choiceKind, { ...options, choices } as ChoiceOptions);
}

/** Several values of a choice set (of text values): a bare list on read and write. */
export function MultipleChoiceField(choices: ChoiceSet<string>, options: Omit<MultipleChoiceOptions, 'choices'> = {}): PropertyDecorator {
  return declareField(multipleChoiceKind, { ...options, choices } as MultipleChoiceOptions);
}

/**
 * extras.Status restricted to the statuses enabled for this model. `defaultSlug` is the status a
 * create gets when the request's API version has no status field (interfaces before 1.4).
 */
export function StatusField(target: Thunk<ModelClass>, options: Omit<StatusOptions, 'target'> = {}): PropertyDecorator {
  return declareField(statusKind, { ...options, target, onDelete: 'protect', feature: 'statuses' } as FieldOptions);
}

/** A foreign key: nested object on read, UUID or attribute object on write. */
export function ForeignKey(target: Thunk<ModelClass>, options: Omit<ForeignKeyOptions, 'target'>): PropertyDecorator {
  const defaults: FieldOptions = options.nullable ? { default: null, required: false } : {};
  return declareField(foreignKeyKind, { ...defaults, ...options, target } as ForeignKeyOptions);
}

/** A many-to-many relation kept in a link table. */
export function ManyToMany(target: Thunk<ModelClass>, options: Omit<ManyToManyOptions, 'target'> = {}): PropertyDecorator {
  return declareField(manyToManyKind, { required: false, writeBy: 'pk', ...options, target } as ManyToManyOptions);
}

/** `tags`: the tagging feature, provided by the application that defines tags. */
export function TagsField(options: FieldOptions = {}): PropertyDecorator {
  return declareField(manyToManyKind, {
    required: false,
    writeBy: 'nested',
    restrictBy: 'content_types',
    slot: 'tail',
    rank: 30,
    ...options,
    feature: 'tags',
  } as ManyToManyOptions);
}

/** `content_types`: a list of `app_label.model` strings. */
export function ContentTypesField(options: ContentTypesOptions = {}): PropertyDecorator {
  return declareField(contentTypesKind, options);
}

/** Read-only count of related rows (`site_count`). */
export function RelatedCount(target: Thunk<ModelClass>, via: string, options: Omit<RelatedCountOptions, 'target' | 'via'> = {}): PropertyDecorator {
  return declareField(relatedCountKind, { readOnly: true, ...options, target, via } as RelatedCountOptions);
}

/** A MAC address: any common notation in, `AA:BB:CC:DD:EE:FF` out; blank or null for none. */
export function MACAddressField(options: FieldOptions = {}): PropertyDecorator {
  return declareField(macAddressKind, { nullable: true, required: false, ...options });
}

/**
 * A read-only key computed rather than stored (`config_context`, `network_driver_mappings`): from
 * the model's own columns with `compute`, else from the application providing it, else `{}`.
 * `optOut`/`optIn` name the query parameter that removes or adds it (`exclude`, `include`).
 */
export function ComputedField(options: ComputedOptions = {}): PropertyDecorator {
  return declareField(computedKind, { required: false, lookups: false, ...options, readOnly: true });
}

/** A read-only nested object reached through foreign keys (`site` of a VM is `cluster.site`). */
export function RelatedVia(target: Thunk<ModelClass>, path: string, options: FieldOptions = {}): PropertyDecorator {
  return declareField(relatedViaKind, { required: false, lookups: false, ...options, readOnly: true, target, path } as RelatedViaOptions);
}

/** `parent` of a tree model; children are deleted with their parent. */
export function TreeParent(options: TreeParentOptions = {}): PropertyDecorator {
  const parent = declareField(treeParentKind, {
    nullable: true,
    required: false,
    default: null,
    related: 'children',
    ...options,
    onDelete: 'cascade',
    descendants: true,
  } as FieldOptions);
  const path = declareField(hiddenKind, { hidden: true, readOnly: true, lookups: false, sqlType: 'varchar', length: 760 } as HiddenOptions);
  const sort = declareField(hiddenKind, { hidden: true, readOnly: true, lookups: false, sqlType: 'text' } as HiddenOptions);
  const display = options.display ? declareField(hiddenKind, { hidden: true, readOnly: true, lookups: false, sqlType: 'text' } as HiddenOptions) : null;
  return (proto, property) => {
    parent(proto, property);
    path(proto, '_tree_path');
    sort(proto, '_tree_sort');
    display?.(proto, TREE_DISPLAY);
  };
}

/**
 * Hidden natural-sort key of another field (`_name` of `name`: digit runs padded), for ordering;
 * `using` replaces the default key function (interfaces sort by slot, position and id).
 */
export function NaturalKey(of: string, using: (value: string) => string = naturalize): PropertyDecorator {
  return declareField(hiddenKind, {
    hidden: true,
    readOnly: true,
    lookups: false,
    sqlType: 'varchar',
    length: 255,
    derive: (values) => using(String(values[of] ?? '')),
  } as HiddenOptions);
}

/** An IANA time zone name. */
export function TimeZoneField(options: FieldOptions = {}): PropertyDecorator {
  return declareField(timeZoneKind, { required: false, ...options });
}

/** A write-only password, stored hashed. */
export function PasswordField(options: FieldOptions = {}): PropertyDecorator {
  return declareField(passwordKind, { writeOnly: true, ...options });
}

/** `_depth` of a tree model. */
export function TreeDepth(options: TreeDepthOptions = {}): PropertyDecorator {
  return declareField(treeDepthKind, { readOnly: true, label: 'Depth', ...options });
}

/** `custom_fields`: values of the custom fields defined for the model. */
export function CustomFieldsField(options: FieldOptions = {}): PropertyDecorator {
  return declareField(customFieldsKind, { required: false, slot: 'tail', rank: 50, ...options, feature: 'custom_fields' } as FieldOptions);
}

/**
 * A value computed per request by the provider of the feature named like the property
 * (`relationships`, `computed_fields`); opt-in on GET through `include`.
 */
export function Computed(options: Omit<ComputedOptions, 'feature'>): PropertyDecorator {
  return (proto, property) => {
    const name = String(property);
    const rank = (TAIL_RANK as Record<string, number>)[name];
    declareField(computedKind, { required: false, slot: 'tail', rank, lookups: false, ...options, feature: name } as ComputedOptions)(proto, property);
  };
}

/** One `app_label.model` string (a computed field's `content_type`, a relationship's sides). */
export function ContentTypeField(options: ContentTypeOptions = {}): PropertyDecorator {
  return declareField(contentTypeKind, options);
}

/** A named filter: a static method returning a predicate for the parsed value. */
export function Filter(options: NamedFilterOptions): MethodDecorator {
  return (cls, property) => {
    const name = options.name ?? String(property);
    recordFilter(cls as Function, { name, method: String(property), options });
  };
}

/**
 * An IP network (`role: 'network'`, host bits cleared: prefixes, aggregates) or an interface
 * address (`role: 'host'`). Also declares the read-only `family` field before it.
 */
export function NetworkField(options: { role: NetworkRole; noun: string } & FieldOptions): PropertyDecorator {
  const family = declareField(ipFamilyKind, { readOnly: true, single: true, label: 'Family' });
  const network = declareField(networkKind, { ...options });
  return (proto, property) => {
    family(proto, 'family');
    network(proto, property);
  };
}

/**
 * A generic relation: declares `<relation>_type`, `<relation>_id` (written together) and the
 * read-only nested `<relation>`, on the property named after the relation.
 */
export function GenericForeignKey(options: {
  types?: string[];
  forFeature?: string;
  help?: string;
  required?: boolean;
  notFound?: GenericForeignKeyOptions['notFound'];
  indexed?: boolean;
  typeField?: string;
  idField?: string;
  onDelete?: 'cascade';
  visibleOnly?: boolean;
}): PropertyDecorator {
  return (proto, property) => {
    const relation = String(property);
    const types = options.types ?? [];
    const names = { typeField: options.typeField, idField: options.idField, onDelete: options.onDelete, visibleOnly: options.visibleOnly };
    // A required relation (a note's object) must be named on create; an optional one defaults to none.
    const shared = options.required
      ? { types, forFeature: options.forFeature, notFound: options.notFound, relation, ...names, nullable: false, required: true }
      : { types, forFeature: options.forFeature, notFound: options.notFound, relation, ...names, nullable: true, required: false, default: null };
    const typeName = options.typeField ?? `${relation}_type`;
    const idName = options.idField ?? `${relation}_id`;
    declareField(genericTypeKind, { ...shared, label: options.typeField ? options.typeField.replace(/_/g, ' ') : `${relation.replace(/_/g, ' ')} type` } as FieldOptions)(proto, typeName);
    declareField(genericIdKind, { ...shared, label: options.idField ? options.idField.replace(/_/g, ' ') : `${relation.replace(/_/g, ' ')} id` } as FieldOptions)(proto, idName);
    declareField(genericObjectKind, { ...shared, readOnly: true, lookups: false, help: options.help } as FieldOptions)(proto, relation);
    // Filters by target (`?device=`, `?interface_id=`) look the pair up together; a model whose
    // unique constraint covers the pair (`indexed: false`) has that index already, and MySQL
    // would give both the same name.
    if (options.indexed !== false) Index([typeName, idName])((proto as { constructor: Function }).constructor);
  };
}

/** The read-only list of objects whose foreign key `via` points here (`nat_outside`). */
export function ReverseList(target: Thunk<ModelClass>, via: string, options: Omit<ReverseListOptions, 'target' | 'via'> = {}): PropertyDecorator {
  return declareField(reverseListKind, { readOnly: true, required: false, lookups: false, ...options, target, via } as FieldOptions);
}

/** Read-only: the one object of `target` whose `via` points here and whose `where` field has its value, in a form of `form`'s fields. */
export function ReverseOne(target: Thunk<ModelClass>, via: string, options: Omit<ReverseOneOptions, 'target' | 'via'>): PropertyDecorator {
  return declareField(reverseOneKind, { readOnly: true, required: false, lookups: false, ...options, target, via } as FieldOptions);
}

/** An auto-increment integer `id` (groups), instead of the UUID of BaseModel. */
export function IntegerPrimaryKey(): PropertyDecorator {
  return declareField(integerPkKind, { slot: 'head', readOnly: true, label: 'Id' } as FieldOptions);
}

/** Read-only: the first non-null of the named fields (`primary_ip` of `primary_ip6`, `primary_ip4`). */
/** `notes_url`, placed with the common fields; the model must also serve the `/notes/` action. */
export function NotesUrl(): PropertyDecorator {
  return declareField(notesUrlKind, { slot: 'tail', rank: TAIL_RANK.notes_url, readOnly: true, required: false, lookups: false, label: 'Notes url' } as FieldOptions);
}

export function FirstOf(of: string[], options: FieldOptions = {}): PropertyDecorator {
  return declareField(firstOfKind, { readOnly: true, required: false, lookups: false, ...options, of } as FieldOptions);
}

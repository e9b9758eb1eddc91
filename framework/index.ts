/**
 * The public surface for model and plugin authors. Models import only from here.
 */
import 'reflect-metadata';

export {
  Model,
  Field,
  ChoiceField,
  StatusField,
  ForeignKey,
  ManyToMany,
  TagsField,
  ContentTypesField,
  RelatedCount,
  TreeParent,
  TreeDepth,
  CustomFieldsField,
  NaturalKey,
  TimeZoneField,
  PasswordField,
  MACAddressField,
  ComputedField,
  RelatedVia,
  Filter,
  NetworkField,
  GenericForeignKey,
  ReverseList,
  Computed,
  ContentTypeField,
  IntegerPrimaryKey,
  FirstOf,
  NotesUrl,
  declareField,
} from './decorators';
export { BaseModel, ChangeLoggedModel, OrganizationalModel, PrimaryModel } from './models';
export { defineChoices, ChoiceSet, type ChoiceValue } from './fields/choice';
export { slugify, naturalize, naturalizeInterface } from './fields/string';
export { normaliseMac } from './fields/mac-address';
export type { ComputedOptions } from './fields/computed';
export type { ComputedValueProvider, ComputedProvider, CustomFieldProvider } from './features/field-providers';
export { buildRegistry, Registry, type FeatureProviders } from './metadata/registry';
export { defineApp, type ApplicationDefinition as AppDefinition } from './actions/define-app';
export { ModelMeta, FieldMeta } from './metadata/model-meta';
export type { Json, JsonObject, ModelClass, ModelOptions, FieldOptions, Values } from './metadata/types';
export { ValidationError, FieldError, NotFound, PermissionDenied, ProtectedError } from './errors';
export type { WriteContext, Actor } from './serializer/write-context';
export { displayOf } from './serializer/queries';
export { Store, inTransaction, type ModelRef, type Where } from './store/store';
export type { Predicate } from './query/predicate';
export { ormFilter, ormPredicate, Predicates } from './query/orm';
export type { FieldKind } from './fields/kind';
export { notesUrlKind } from './fields/notes-url';
export type { Executor, Database } from './store/executor';
export { fieldTest, and, or, not, TRUE, FALSE } from './query/predicate';
export type { RequestContext } from './http/context';
export { hashPassword, verifyPassword, decoyHash } from './fields/password-hash';
export type { AuthBackend, AuthUser, TokenInfo } from './auth/types';
export { parseNetwork, networkText, hostText, formatAddress, type IPNetwork, type Family } from './network/ip';
export { defineActions, ActionRequest, type ActionHandler } from './actions/define';
export { freeBlocks, allocateBlocks, freeAddresses } from './store/free-space';
export { lockRow } from './store/rows';
export { makeNetwork, toHex, BITS } from './network/ip';

// Feature providers (custom fields, relationships, computed fields) and what they build on.
export type { FeatureProvider } from './features/registry';
export type { FieldInfo } from './fields/kind';
export { FilterValueError } from './fields/kind';
export type { RenderContext } from './serializer/render-context';
export type { Id } from './query/id';
export { DEFAULT_VERSION, LATEST_VERSION, type ApiVersion } from './versioning/version';
export { filterSetFor, filterQuery, matchingIds, type FilterDef, type FilterContext } from './filterset/filterset';
export { jsonKeyTest, type JsonValueType } from './query/json-key';
export { setJsonKey, removeJsonKey, rewriteJsonKey } from './store/json-documents';
export { nestedObjects } from './serializer/nested';
export { displaysOf } from './serializer/representation';
export { resolveRelated } from './fields/related-reference';
export { pyRepr, pyTypeName } from './fields/common';
export { booleanFilterValue } from './fields/boolean';
export { integerFilterValue } from './fields/integer';
export { parseDate } from './fields/date';
export { canonicalUuid } from './fields/uuid';
export { compileRegex } from './store/sqlite-functions';
export { Template, TemplateError, renderTemplate } from './template/engine';
export { allowedBy, baseCheck, isExempt, type PermissionEngine } from './auth/permissions';
export type { Action } from './auth/types';
export type { WriteListener, WriteScope } from './serializer/write-scope';
export { renderSnapshots, SNAPSHOT_RENDER } from './views/read';
export { databaseForms } from './serializer/database-form';
export { storeDateTime } from './fields/date';
export type { ExtraRoute, Handler } from './router/api';
export { definePlugin, type PluginDefinition, type PluginOptions } from './plugins/define';
export { DataKey, RequestData } from './metadata/request-data';
// Migrations: dialect-neutral table definitions for a plugin's own schema.
export { createTable, tableColumn, type ColumnSpec, type TableSpec } from './store/migration-schema';

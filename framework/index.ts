/**
 * The public surface of the framework: what models, applications and plugins import. Everything
 * else is internal and imported by path inside framework/ only (models/ and plugins/ are checked
 * to import nothing else, test/framework/structure.test.ts).
 */
import 'reflect-metadata';

// -- Declaring a model -----------------------------------------------------------------------
export {
  Model,
  Field,
  ChoiceField,
  MultipleChoiceField,
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
  ReverseOne,
  Computed,
  ContentTypeField,
  IntegerPrimaryKey,
  FirstOf,
  NotesUrl,
} from './decorators';
export { BaseModel, ChangeLoggedModel, OrganizationalModel, PrimaryModel } from './models';
export { defineChoices, type ChoiceSet, type ChoiceValue } from './fields/choice';
export { slugify, naturalize, naturalizeInterface } from './fields/string';
export { TREE_DISPLAY } from './fields/tree-columns';
export type { ComputedOptions } from './fields/computed';
export type { Json, JsonObject, ModelClass, ModelOptions, FieldOptions, PathFilterSpec, Values } from './metadata/types';
export type { Id } from './query/id';

// -- Filters and rules: predicates, reading other objects, errors ----------------------------
export { fieldTest, and, or, not, TRUE, FALSE, type Predicate } from './query/predicate';
export { ormFilter, Predicates } from './query/orm';
export { Store, inTransaction, type ModelRef, type Where } from './store/store';
export { CachedConfig, cachedConfig } from './store/config-cache';
export { retryingDeadlocks } from './store/deadlocks';
export type { WriteContext, Actor } from './serializer/write-context';
export { displayOf } from './serializer/queries';
export { unstorableInput } from './serializer/storable-input';
export { ValidationError, FieldError, NotFound, PermissionDenied, ProtectedError } from './errors';
export { FilterValueError, type FieldInfo } from './fields/kind';

// -- IP networks and the free space in a prefix ------------------------------------------------
export { parseNetwork, networkText, hostText, formatAddress, BITS, type IPNetwork, type Family } from './network/ip';
export { freeBlocks, allocateBlocks, freeAddresses } from './store/free-space';
export { statusSlug } from './store/statuses';
export { lockRow } from './store/rows';
export { newRowId } from './store/row-ids';

// -- Applications, extra actions and routes, plugins -------------------------------------------
export { defineApp, type ApplicationDefinition as AppDefinition } from './actions/define-app';
export { defineActions, ActionRequest, type ActionHandler } from './actions/define';
export type { ActionDoc, ActionField } from './actions/declared-routes';
export type { ExtraRoute, Handler, HandlerArgs } from './router/api';
export type { RequestContext } from './http/context';
export { isMultipart, fileText, type FormBody, type UploadedFile } from './http/form';
export { IMAGE_MEDIA_TYPES, isUploadedFile, NOT_A_FILE, sniffImage, type SniffedImage } from './fields/image-file';
export { DataKey, RequestData } from './metadata/request-data';
export { definePlugin, type PluginDefinition, type PluginOptions } from './plugins/define';
/** Migrations: dialect-neutral table definitions for an application's or a plugin's schema. */
export { createTable, tableColumn, updateRows, type ColumnSpec, type TableSpec } from './store/migration-schema';
export { grantStatus, revokeStatus, type StatusSeed } from './store/status-rows';

// -- Jobs: automation code run by the job queue -----------------------------------------------
export { Job, JobHookReceiver, JobButtonReceiver, JobInfo, Var, jobOptionsOf, jobVariablesOf, isJobClass, isHookReceiver, isButtonReceiver, registeredJob } from './jobs/job';
export type { JobClass, JobOptions, JobSource as JobOrigin, RegisteredJob } from './jobs/job';
export { JobContext, type JobLogLevel, type JobLogLine, type LoggedObject } from './jobs/context';
export { parseVariable, describeVariable, isRequired, type VariableSpec, type VariableType } from './jobs/variables';
export { claimRows, type ClaimSpec } from './store/queue';

// -- Secrets: providers (core and plugins') and reading a value where it is used ----------------
export {
  secretValue,
  secretsProviderOf,
  secretsProvidersOf,
  setSecretsProviders,
  validateSecretParameters,
  SecretError,
  SecretProviderError,
  SecretParametersError,
  SecretValueNotFoundError,
  CORE_SECRETS_PROVIDERS,
  type SecretsProvider,
  type SecretRef,
} from './features/secrets';

// -- New field kinds ---------------------------------------------------------------------------
export { declareField } from './decorators';
export type { FieldKind } from './fields/kind';
export { notesUrlKind } from './fields/notes-url';
export { pyRepr, pyTypeName } from './fields/common';
export { parseDate, storeDateTime } from './fields/date';
/** Kinds a value kept outside the columns may be (custom fields), and fields of them: valueField(). */
export { textKind } from './fields/string';
export { integerKind } from './fields/integer';
export { booleanKind } from './fields/boolean';
export { dateKind } from './fields/date';
export { jsonKind } from './fields/json';
export { multipleChoiceKind } from './fields/multiple-choice';
export { valueField, describeValue } from './fields/value-field';
export { canonicalUuid } from './fields/uuid';

// -- Feature providers (the extras and users applications: tags, custom fields, relationships,
//    computed fields, config contexts, change log, webhooks, authentication, permissions) ------
export type { FeatureProvider, FeatureGraphQLField, GraphQLFeature } from './features/registry';
export type { ComputedValueProvider, ComputedProvider, CustomFieldProvider } from './features/field-providers';
export type { FeatureProviders } from './metadata/registry';
export type { RenderContext } from './serializer/render-context';
export type { WriteListener, WriteScope } from './serializer/write-scope';
export { filterSetFor, filterQuery, matchingIds, type FilterDef } from './filterset/filterset';
export type { FilterContext } from './filterset/definition';
export { documentKeyFilter, fieldLookups } from './filterset/field-filters';
export { jsonKeyTest, type JsonValueType } from './query/json-key';
export { setJsonKey, removeJsonKey, rewriteJsonKey } from './store/json-documents';
export { nestedObjects } from './serializer/nested';
export { displaysOf } from './serializer/representation';
export { resolveRelated } from './fields/related-reference';
export { compileRegex } from './store/sqlite-functions';
export { Template, TemplateError, renderTemplate } from './template/engine';
export { renderSnapshots, SNAPSHOT_RENDER } from './views/read';
export { runFor as runGraphQLFor, syntaxError as graphqlSyntaxError, variableDefaults as graphqlVariableDefaults } from './graphql';
export { databaseForms } from './serializer/database-form';
export { allowedBy, baseCheck, type PermissionEngine } from './auth/permissions';
export type { Action, AuthBackend, AuthUser, TokenInfo } from './auth/types';
export { verifyPassword, decoyHash } from './fields/password-hash';

// -- Assembly (app/): the registry, the database, API versions ---------------------------------
export { buildRegistry, Registry } from './metadata/registry';
export { ModelMeta, FieldMeta } from './metadata/model-meta';
export type { Executor, Database } from './store/executor';
export { DEFAULT_VERSION, LATEST_VERSION, type ApiVersion } from './versioning/version';

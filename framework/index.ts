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
  Filter,
  NetworkField,
  GenericForeignKey,
  ReverseList,
  declareField,
} from './decorators';
export { BaseModel, ChangeLoggedModel, OrganizationalModel, PrimaryModel } from './models';
export { defineChoices, ChoiceSet, type ChoiceValue } from './fields/choice';
export { slugify, naturalize } from './fields/string';
export { defineApp, buildRegistry, Registry, type AppDefinition, type FeatureProviders } from './metadata/registry';
export { ModelMeta, FieldMeta } from './metadata/model-meta';
export type { Json, JsonObject, ModelClass, ModelOptions, FieldOptions } from './metadata/types';
export { ValidationError, FieldError, NotFound, PermissionDenied } from './errors';
export type { Values, WriteContext, Actor } from './serializer/write-context';
export type { Predicate } from './filterset/predicate';
export { ormFilter, ormPredicate, Predicates } from './filterset/orm';
export type { FieldKind } from './fields/kind';
export type { Executor, Database } from './db/executor';
export { fieldTest, and, or, not, TRUE, FALSE } from './filterset/predicate';
export type { RequestContext } from './http/context';
export { hashPassword, verifyPassword, decoyHash } from './auth/passwords';
export type { AuthBackend, AuthUser, TokenInfo } from './auth/types';
export { parseNetwork, networkText, hostText, formatAddress, type IPNetwork, type Family } from './network/ip';
export { defineActions, ActionRequest, type ActionHandler } from './actions/define';
export { freeBlocks, allocateBlocks, freeAddresses, lockRow } from './network/free-space';
export { makeNetwork, toHex, BITS } from './network/ip';
export { Template, TemplateError, renderTemplate } from './template/engine';

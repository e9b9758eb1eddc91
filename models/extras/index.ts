import { defineApp } from '../../framework';
import { ComputedField } from './computed-field';
import { ConfigContext, ConfigContextSchema } from './config-context';
import { ContentType, syncContentTypes } from './content-type';
import { provider as configContexts } from './config-contexts.provider';
import { provider as computedFields } from './computed-fields.provider';
import { CustomField, CustomFieldChoice } from './custom-field';
import { CustomLink } from './custom-link';
import { DynamicGroup, DynamicGroupMembership } from './dynamic-group';
import { dynamicGroupActions } from './dynamic-group.actions';
import { ExportTemplate } from './export-template';
import { Note } from './note';
import { ImageAttachment, MediaStore } from './image-attachment';
import { noteActions } from './note.actions';
import { GraphQLQuery } from './graphql-query';
import { graphqlQueryActions } from './graphql-query.actions';
import { exportTemplateActions } from './export-template.actions';
import { provider as customFields } from './custom-fields.provider';
import { Relationship, RelationshipAssociation } from './relationship';
import { provider as relationships } from './relationships.provider';
import { Status } from './status';
import { TaggedItem, Tag } from './tag';
import { ObjectChange } from './object-change';
import { Webhook, WebhookDelivery } from './webhook';
import { JobLogEntry, JobModel, JobResult, JobWorkerBeat, ScheduledJob } from './job';
import { jobActions, legacyJobRoutes } from './job.actions';
import { JobButton, JobHook } from './job-hook';
import { Secret, SecretsGroup, SecretsGroupAssociation, groupSecret, readSecret } from './secret';
import { secretActions } from './secret.actions';
import { GitRepository } from './git-repository';
import { gitRepositoryActions } from './git-repository.actions';
import { ownerProvider } from './owner.provider';

export { syncContentTypes };
export { ImageAttachment, MediaStore };
export { ConfigContext, ConfigContextSchema, ContentType, CustomLink, DynamicGroup, DynamicGroupMembership, ExportTemplate, Note, Status, Tag, TaggedItem, CustomField, CustomFieldChoice, Relationship, RelationshipAssociation, ComputedField, ObjectChange, Webhook, WebhookDelivery, GraphQLQuery };
export { changeLogListener } from './change-log';
export { WebhookWorker, type WebhookWorkerOptions } from './webhook-worker';
export { JobModel, JobResult, JobLogEntry, ScheduledJob, JobHook, JobButton, legacyJobRoutes };
export { Secret, SecretsGroup, SecretsGroupAssociation, groupSecret, readSecret };
export { SecretsGroupAccessType, SecretsGroupSecretType } from './choices';
export { jobHookListener } from './job-hook-listener';
export { JobWorker, enqueueRun, type JobWorkerOptions } from './job-worker';
export { JobCatalog, setJobCatalog, setLocalJobQueue, setTaskRunner, syncJobRecords } from './job-catalog';
export { GitRepository };
export { setGitSettings, type GitSettings } from './git-settings';
export { gitRepositoryListener } from './git-lifecycle';
export { runGitSync } from './git-sync';

/** Feature providers are registered under the feature's name; the framework finds them there. */
export default defineApp(
  'extras',
  [Status, Tag, TaggedItem, ComputedField, CustomField, CustomFieldChoice, Relationship, RelationshipAssociation, ConfigContextSchema, ConfigContext, CustomLink, ExportTemplate, Note, ImageAttachment, ContentType, ObjectChange, Webhook, WebhookDelivery, GraphQLQuery, JobModel, ScheduledJob, JobResult, JobLogEntry, JobHook, JobButton, Secret, SecretsGroup, SecretsGroupAssociation, GitRepository, JobWorkerBeat, DynamicGroup, DynamicGroupMembership],
  {
    actions: [...noteActions, ...graphqlQueryActions, ...exportTemplateActions, ...jobActions, ...secretActions, ...gitRepositoryActions, ...dynamicGroupActions],
    provides: {
      tags: { tag: () => Tag, through: () => TaggedItem },
      custom_fields: customFields,
      computed_fields: computedFields,
      relationships,
      config_context: configContexts,
      owner: ownerProvider,
    },
  },
);

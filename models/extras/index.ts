import { defineApp } from '../../framework';
import { ComputedField } from './computed-field';
import { provider as computedFields } from './computed-fields.provider';
import { CustomField, CustomFieldChoice } from './custom-field';
import { provider as customFields } from './custom-fields.provider';
import { Relationship, RelationshipAssociation } from './relationship';
import { provider as relationships } from './relationships.provider';
import { Status } from './status';
import { TaggedItem, Tag } from './tag';
import { ObjectChange } from './object-change';
import { Webhook, WebhookDelivery } from './webhook';

export { Status, Tag, TaggedItem, CustomField, CustomFieldChoice, Relationship, RelationshipAssociation, ComputedField, ObjectChange, Webhook, WebhookDelivery };
export { changeLogListener } from './change-log';
export { WebhookWorker, type WebhookWorkerOptions } from './webhook-worker';

/** Feature providers are registered under the feature's name; the framework finds them there. */
export default defineApp(
  'extras',
  [Status, Tag, TaggedItem, ComputedField, CustomField, CustomFieldChoice, Relationship, RelationshipAssociation, ObjectChange, Webhook, WebhookDelivery],
  {
    provides: {
      tags: { tag: () => Tag, through: () => TaggedItem },
      custom_fields: customFields,
      computed_fields: computedFields,
      relationships,
    },
  },
);

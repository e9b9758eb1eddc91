import { defineChoices, type ChoiceValue } from '../../framework';

/** Nautobot's CustomFieldTypeChoices. */
export const CustomFieldType = defineChoices({
  text: 'Text',
  integer: 'Integer',
  boolean: 'Boolean (true/false)',
  date: 'Date',
  url: 'URL',
  select: 'Selection',
  'multi-select': 'Multiple selection',
  json: 'JSON',
  markdown: 'Markdown',
});
export type CustomFieldType = ChoiceValue<typeof CustomFieldType>;

/** Nautobot's CustomFieldFilterLogicChoices. */
export const CustomFieldFilterLogic = defineChoices({ disabled: 'Disabled', loose: 'Loose', exact: 'Exact' });
export type CustomFieldFilterLogic = ChoiceValue<typeof CustomFieldFilterLogic>;

/** Nautobot's RelationshipTypeChoices. */
export const RelationshipType = defineChoices({
  'one-to-one': 'One to One',
  'symmetric-one-to-one': 'Symmetric One to One',
  'one-to-many': 'One to Many',
  'many-to-many': 'Many to Many',
  'symmetric-many-to-many': 'Symmetric Many to Many',
});
export type RelationshipType = ChoiceValue<typeof RelationshipType>;

/** Nautobot's RelationshipRequiredSideChoices. */
export const RelationshipRequiredSide = defineChoices({
  '': 'Neither side required',
  source: 'Source objects MUST implement this relationship',
  destination: 'Destination objects MUST implement this relationship',
});

/** Nautobot's ObjectChangeActionChoices. */
export const ObjectChangeAction = defineChoices({ create: 'Created', update: 'Updated', delete: 'Deleted' });
export type ObjectChangeAction = ChoiceValue<typeof ObjectChangeAction>;

/** Nautobot's WebhookHttpMethodChoices (a plain string on the wire). */
export const WEBHOOK_HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Bootstrap button classes of custom links (`nautobot/utilities/choices.py`, ButtonColorChoices). */
export const ButtonClass = defineChoices({
  default: 'Default',
  primary: 'Primary (blue)',
  success: 'Success (green)',
  info: 'Info (aqua)',
  warning: 'Warning (orange)',
  danger: 'Danger (red)',
  link: 'None (link)',
});
export type ButtonClass = ChoiceValue<typeof ButtonClass>;

/** Nautobot's JobResultStatusChoices. */
export const JobResultStatus = defineChoices({ pending: 'Pending', running: 'Running', completed: 'Completed', errored: 'Errored', failed: 'Failed' });
export type JobResultStatus = ChoiceValue<typeof JobResultStatus>;

/** Nautobot's JobSourceChoices. */
export const JobSource = defineChoices({ local: 'Installed in $JOBS_ROOT', git: 'Provided by a Git repository', plugins: 'Part of a plugin' });
export type JobSource = ChoiceValue<typeof JobSource>;

/** Nautobot's LogLevelChoices (a plain string on the wire). */
export const LOG_LEVELS = ['default', 'success', 'info', 'warning', 'failure'] as const;

/** Nautobot's JobExecutionType: the `interval` of a scheduled job (a plain string on the wire). */
export const SCHEDULE_INTERVALS = ['immediately', 'future', 'hourly', 'daily', 'weekly', 'custom'] as const;
export type ScheduleInterval = (typeof SCHEDULE_INTERVALS)[number];

/** Nautobot's SecretsGroupAccessTypeChoices (plain strings on the wire, case-sensitive). */
export const SecretsGroupAccessType = defineChoices({
  Generic: 'Generic',
  Console: 'Console',
  gNMI: 'gNMI',
  'HTTP(S)': 'HTTP(S)',
  NETCONF: 'NETCONF',
  REST: 'REST',
  RESTCONF: 'RESTCONF',
  SNMP: 'SNMP',
  SSH: 'SSH',
});
export type SecretsGroupAccessType = ChoiceValue<typeof SecretsGroupAccessType>;

/** Nautobot's SecretsGroupSecretTypeChoices. */
export const SecretsGroupSecretType = defineChoices({ key: 'Key', password: 'Password', secret: 'Secret', token: 'Token', username: 'Username' });
export type SecretsGroupSecretType = ChoiceValue<typeof SecretsGroupSecretType>;

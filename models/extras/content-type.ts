import { Field, IntegerPrimaryKey, Model, Store, type Database, type Registry } from '../../framework';

/**
 * The model types objects refer to as `app_label.model`, read-only, with integer ids as in
 * Nautobot. The rows follow the registry: {@link syncContentTypes} adds the missing ones at
 * start, so ids stay stable while models come and go.
 */
@Model({
  path: 'content-types',
  label: 'contenttypes.contenttype',
  display: { fields: ['app_label', 'verbose_name'], render: (v) => `${String(v.app_label)} | ${String(v.verbose_name)}` },
  brief: ['app_label', 'model'],
  ordering: ['app_label', 'model'],
  search: ['app_label', 'model'],
  uniqueTogether: [['app_label', 'model']],
  operations: ['list', 'retrieve'],
})
export class ContentType {
  @IntegerPrimaryKey()
  id!: number;

  @Field.String({ maxLength: 100 })
  app_label!: string;

  @Field.String({ maxLength: 100 })
  model!: string;

  /** Shown in `display` (`dcim | device type`); not a field of the API. */
  @Field.String({ maxLength: 200, hidden: true, readOnly: true, lookups: false })
  verbose_name!: string;
}

/**
 * Adds a row for each registered model that has none. Several server processes may start at
 * once: a row another one inserted first is not an error.
 */
export async function syncContentTypes(db: Database, registry: Registry): Promise<void> {
  const meta = registry.forClass(ContentType);
  const existing = new Set((await new Store(db.reader).find(meta)).map((row) => `${String(row.app_label)}.${String(row.model)}`));
  for (const model of registry.models) {
    if (existing.has(model.label)) continue;
    const [appLabel, name] = model.label.split('.');
    try {
      await db.transaction((tx) => new Store(tx).insert(meta, { app_label: appLabel, model: name, verbose_name: model.verboseName }));
    } catch (err) {
      if (!db.dialect.uniqueViolation(err)) throw err;
    }
  }
}

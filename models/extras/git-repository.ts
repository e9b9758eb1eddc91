import {
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  OrganizationalModel,
  Predicates,
  TagsField,
  ValidationError,
  Filter,
  pyTypeName,
  type Id,
  type Predicate,
  type Values,
  type WriteContext,
} from '../../framework';
import { SecretsGroup } from './secret';
import { CONTENT_IDS, TOKEN_PLACEHOLDER, acceptedRemoteUrl, gitSettingsOf } from './git-settings';
import { queueSync, removeProvided } from './git-lifecycle';

/**
 * A remote Git repository whose files provide config contexts, config context schemas and export
 * templates (Nautobot's GitRepository). Every create and update queues a sync, `sync/` queues one
 * on demand, and a delete removes what the repository provided.
 */
@Model({
  path: 'git-repositories',
  name: 'gitrepository',
  verboseName: 'Git repository',
  verboseNamePlural: 'Git repositories',
  display: 'name',
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'remote_url', 'branch'],
  graphql: false,
  features: ['config_context_owners', 'export_template_owners'],
})
export class GitRepository extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 255, label: 'Remote URL', help: 'Only HTTP and HTTPS URLs are presently supported' })
  remote_url!: string;

  @Field.String({ maxLength: 64, default: 'main' })
  branch!: string;

  /** Write-only: never shown, logged or put in change records (Nautobot's private `_token`). */
  @Field.String({ maxLength: 200, blank: true, default: '', writeOnly: true, lookups: false, column: '_token' })
  token!: string;

  @Field.String({ maxLength: 64, blank: true, default: '', lookups: false })
  username!: string;

  @ForeignKey(() => SecretsGroup, { nullable: true, onDelete: 'set_null', naturalKey: 'slug' })
  secrets_group!: SecretsGroup | null;

  @Field.String({ maxLength: 48, blank: true, default: '', lookups: false, help: 'Commit hash of the most recent fetch from the selected branch. Used for syncing between workers.' })
  current_head!: string;

  /** Of `extras.configcontext`, `extras.configcontextschema`, `extras.exporttemplate`, `extras.job`. */
  @Field.JSON({ default: () => [], required: false, nullable: false, lookups: false, help: 'Content types this repository provides' })
  provided_contents!: string[];

  /** Nautobot's model has tags (the `tag` filter) but its serializer does not show them. */
  @TagsField({ hidden: true, filterable: true })
  tags!: string[];

  /** Repositories whose provided contents name this one (Nautobot's `provided_contents__icontains`). */
  @Filter({ type: 'string', multiple: 'or', help: 'Provided contents (contains)' })
  static provided_contents(_value: string, p: Predicates, values: string[]): Predicate {
    return p.or(values.map((v) => p.lookup('provided_contents', 'icontains', v)));
  }

  /** The token sent as `********` keeps the stored one; provided contents are stored sorted, once each. */
  static prepare(values: Values, wc: WriteContext): void {
    if (values.token === TOKEN_PLACEHOLDER && wc.current?.token) values.token = wc.current.token;
    const raw = values.provided_contents;
    if (raw === null || raw === undefined) return;
    if (typeof raw !== 'object' || !Array.isArray(raw)) {
      throw new ValidationError({ provided_contents: [`Expected a list of items but got type "${pyTypeName(raw)}".`] });
    }
    const bad = raw.find((item) => !CONTENT_IDS.includes(String(item)) || typeof item === 'object');
    if (bad !== undefined) throw new ValidationError({ provided_contents: [`"${typeof bad === 'string' ? bad : JSON.stringify(bad)}" is not a valid choice.`] });
    values.provided_contents = [...new Set(raw.map(String))].sort();
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const url = String(values.remote_url ?? '');
    if (!acceptedRemoteUrl(url, gitSettingsOf(wc.registry).allowLocal)) throw ValidationError.field('remote_url', 'Enter a valid URL.');
    const provided = (values.provided_contents as string[] | null) ?? [];
    if (provided.length === 0) return;
    const others = await wc.store.find(GitRepository, { remote_url: url });
    if (others.some((o) => o.id !== wc.id && ((o.provided_contents as string[] | null) ?? []).some((c) => provided.includes(c)))) {
      throw ValidationError.model(`Another Git repository already configured for remote URL ${url} provides contents overlapping with this repository.`);
    }
  }

  /** Every create and update queues a sync (Nautobot's `trigger_resync`). */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    await queueSync(values, wc);
  }

  /** What the repositories provided goes with them, recorded in a job result (Nautobot's pre_delete signal). */
  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    await removeProvided(ids, wc);
  }
}


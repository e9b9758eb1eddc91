import type { ModelClass, Json } from '../metadata/types';
import type { Id } from '../query/id';
import { NotFound } from '../errors';
import { Store } from '../store/store';
import { deleteObjects, parseObject, saveObject, validateObject } from '../serializer/writer';
import type { Actor } from '../serializer/write-context';
import type { WriteScope } from '../serializer/write-scope';

export type JobLogLevel = 'default' | 'success' | 'info' | 'warning' | 'failure';

/** One log line of a run, as the job-logs endpoint shows it. */
export interface JobLogLine {
  level: JobLogLevel;
  message: string;
  grouping: string;
  log_object: string | null;
  absolute_url: string | null;
}

/** What a log line may point at: a stored row or a rendered object (display, name or id; url). */
export type LoggedObject = { display?: unknown; name?: unknown; id?: unknown; url?: unknown };

function objectText(obj: LoggedObject | undefined): string | null {
  if (!obj) return null;
  const text = obj.display ?? obj.name ?? obj.id;
  return text === undefined || text === null ? null : String(text).slice(0, 200);
}

/**
 * What a running job works with: its inputs, the caller, a cancellation signal and the database,
 * inside the run's one transaction (rolled back on a dry run). Writes through `create`, `update`
 * and `delete` are validated and change-logged as API writes are.
 */
export class JobContext {
  private failures = 0;
  /** The section later log lines are filed under (Nautobot's log grouping). */
  grouping = 'main';

  constructor(
    /** The validated variables, also set on the job instance. */
    readonly data: Readonly<Record<string, Json>>,
    /** False on a dry run: everything the job writes is rolled back. */
    readonly commit: boolean,
    readonly user: Actor | null,
    /** Aborted at the soft time limit or on cancellation: a long job should check it. */
    readonly signal: AbortSignal,
    private readonly scope: WriteScope,
    private readonly sink: (line: JobLogLine) => Promise<void>,
  ) {}

  /** Reads and raw writes in the run's transaction. */
  get store(): Store {
    return new Store(this.scope.tx, this.scope.registry);
  }

  /** True once the job logged a failure: the result ends `failed`. */
  get failed(): boolean {
    return this.failures > 0;
  }

  /** Creates an object from an API body (validation, defaults, change log). */
  async create(cls: ModelClass, body: Record<string, unknown>): Promise<Id> {
    const model = this.scope.registry.forClass(cls);
    const parsed = await parseObject(model, body, this.scope, null, false);
    await validateObject(model, parsed.values, parsed.wc);
    return saveObject(model, parsed.values, parsed.wc);
  }

  /** Changes an object as a PATCH body would. */
  async update(cls: ModelClass, id: Id, body: Record<string, unknown>): Promise<void> {
    const model = this.scope.registry.forClass(cls);
    const current = (await this.store.findForUpdate(model, [id]))[0]?.values;
    if (!current) throw new NotFound();
    const parsed = await parseObject(model, body, this.scope, current, true);
    await validateObject(model, parsed.values, parsed.wc);
    await saveObject(model, parsed.values, parsed.wc);
  }

  /** Deletes objects with the model's delete rules (protection, cascades, change log). */
  delete(cls: ModelClass, ids: Id[]): Promise<void> {
    return deleteObjects(this.scope.registry.forClass(cls), ids, this.scope);
  }

  async log(level: JobLogLevel, message: string, obj?: LoggedObject): Promise<void> {
    if (level === 'failure') this.failures++;
    const url = obj?.url;
    await this.sink({ level, message, grouping: this.grouping, log_object: objectText(obj), absolute_url: typeof url === 'string' ? url.slice(0, 255) : null });
  }

  logDebug(message: string, obj?: LoggedObject): Promise<void> {
    return this.log('default', message, obj);
  }
  logInfo(message: string, obj?: LoggedObject): Promise<void> {
    return this.log('info', message, obj);
  }
  logSuccess(message: string, obj?: LoggedObject): Promise<void> {
    return this.log('success', message, obj);
  }
  logWarning(message: string, obj?: LoggedObject): Promise<void> {
    return this.log('warning', message, obj);
  }
  logFailure(message: string, obj?: LoggedObject): Promise<void> {
    return this.log('failure', message, obj);
  }
}

/**
 * Typed exceptions. Handlers throw these; only `errors/mapper.ts` turns them into HTTP responses,
 * so status codes and bodies live in one place.
 */
export type FieldMessages = Record<string, unknown>;

export abstract class ApiError extends Error {
  abstract readonly status: number;
  /** JSON body of the response. */
  abstract body(): unknown;
  /** Extra response headers. */
  headers(): Record<string, string> {
    return {};
  }
}

/** 400 with DRF's validation body: `{field: [messages]}`, an array (bulk) or a bare list of strings. */
export class ValidationError extends ApiError {
  readonly status = 400;
  constructor(readonly detail: FieldMessages | unknown[]) {
    super(typeof detail === 'object' ? JSON.stringify(detail) : String(detail));
  }
  body(): unknown {
    return this.detail;
  }
  /** A model-level rule (Django's `__all__` key). */
  static model(message: string): ValidationError {
    return new ValidationError({ __all__: [message] });
  }
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
  static nonField(message: string): ValidationError {
    return new ValidationError({ non_field_errors: [message] });
  }
}

/** A problem with one field's value, raised while parsing; collected under the field name. */
export class FieldError extends Error {
  readonly messages: string[];
  constructor(messages: string | string[]) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join(' '));
    this.messages = list;
  }
}

/** A malformed filter value: reported as `{param: [message]}` with 400. */
export class FilterValueError extends Error {}

abstract class DetailError extends ApiError {
  constructor(readonly detail: string) {
    super(detail);
  }
  body(): unknown {
    return { detail: this.detail };
  }
}

/** 400 `{detail}`: malformed JSON, version mismatch. */
export class ParseError extends DetailError {
  readonly status = 400;
}

export class NotAuthenticated extends DetailError {
  readonly status = 403;
  constructor(detail = 'Authentication credentials were not provided.') {
    super(detail);
  }
}

export class AuthenticationFailed extends DetailError {
  readonly status = 403;
}

export class PermissionDenied extends DetailError {
  readonly status = 403;
  constructor(detail = 'You do not have permission to perform this action.') {
    super(detail);
  }
}

export class NotFound extends DetailError {
  readonly status = 404;
  constructor(detail = 'Not found.') {
    super(detail);
  }
}

export class MethodNotAllowed extends DetailError {
  readonly status = 405;
  constructor(readonly method: string, readonly allow: string[] = []) {
    super(`Method "${method}" not allowed.`);
  }
  override headers(): Record<string, string> {
    return this.allow.length ? { Allow: this.allow.join(', ') } : {};
  }
}

export class NotAcceptable extends DetailError {
  readonly status = 406;
  constructor(detail = 'Could not satisfy the request Accept header.') {
    super(detail);
  }
}

/** 409: a delete blocked by protecting references. */
export class ProtectedError extends DetailError {
  readonly status = 409;
  constructor(dependents: Array<{ display: string; id: string | number }>) {
    super(
      dependents.length
        ? `Unable to delete object. ${dependents.length} dependent objects were found: ` + dependents.map((d) => `${d.display} (${d.id})`).join(', ')
        : // A racing write made an object depend on it, and that object has changed again since.
          'Unable to delete object. Dependent objects were found while deleting it.',
    );
  }
}

/**
 * 400: a list body (bulk create, update or delete) with more objects than the server takes in
 * one request (NETINV_MAX_BULK_OBJECTS); refused before anything is written. Not a 413, which
 * is about the body's size in bytes and closes the connection: the body here was read and parsed,
 * and its content is what is refused, as DRF refuses a list longer than a ListSerializer's
 * max_length with a 400.
 */
export class TooManyObjects extends DetailError {
  readonly status = 400;
  constructor(readonly limit: number, readonly count: number) {
    super(`A bulk request may hold at most ${limit} objects; this one holds ${count}.`);
  }
}

export class PayloadTooLarge extends DetailError {
  readonly status = 413;
  constructor() {
    super('Request body too large.');
  }
  // The rest of the body is not read: the connection cannot carry another request.
  override headers(): Record<string, string> {
    return { Connection: 'close' };
  }
}

export class UnsupportedMediaType extends DetailError {
  readonly status = 415;
  constructor(mediaType: string) {
    super(`Unsupported media type "${mediaType}" in request.`);
  }
}

/**
 * 412: legacy 1.2 representation cannot express the data; or an If-Match that the object's
 * current entity tag (sent back in `ETag`) does not satisfy.
 */
export class PreconditionFailed extends DetailError {
  readonly status = 412;
  constructor(detail: string, readonly etag?: string) {
    super(detail);
  }
  override headers(): Record<string, string> {
    return this.etag ? { ETag: this.etag } : {};
  }
}

/**
 * Not an error for the client: allocation endpoints answer 204 with a detail body when space is
 * exhausted (pynautobot relies on the 204).
 */
export class NoContentWithDetail extends DetailError {
  readonly status = 204;
}

/**
 * 409: a write the database kept rolling back as the victim of deadlocks with concurrent writes,
 * however often it ran again; nothing of it was written.
 */
export class WriteConflict extends DetailError {
  readonly status = 409;
  constructor() {
    super('The write conflicted with concurrent writes and was not made; send it again.');
  }
}

export class ServiceUnavailable extends DetailError {
  readonly status = 503;
}

/** Collects per-field messages while parsing a body, then throws them as one ValidationError. */
export class FieldErrorCollector {
  readonly errors: Record<string, unknown> = {};
  add(field: string, message: string | string[]): void {
    const list = (this.errors[field] as string[] | undefined) ?? [];
    list.push(...(Array.isArray(message) ? message : [message]));
    this.errors[field] = list;
  }
  set(field: string, value: unknown): void {
    this.errors[field] = value;
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.errors);
  }
}

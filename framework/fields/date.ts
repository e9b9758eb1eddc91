import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { FieldOptions, Values } from '../metadata/types';
import { applyColumn, baseInfo, NUMERIC_LOOKUPS, rejectNull } from './common';
import { FilterValueError, type FieldKind, type KindWriteContext } from './kind';

export interface DateOptions extends FieldOptions {
  /** Set to the current time on every save. */
  autoNow?: boolean;
  /** Set to the current time when the object is created. */
  autoNowAdd?: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d*)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Milliseconds since the epoch of a UTC time; years 1–99 are years 1–99 (Date.UTC would add 1900). */
function utcTime(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const t = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  t.setUTCFullYear(y);
  return t.getTime();
}

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1) return false;
  const t = new Date(utcTime(y, m, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-DD`, validated as a calendar date; null otherwise. */
export function parseDate(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const m = DATE.exec(text.trim());
  if (!m || !validDate(+m[1], +m[2], +m[3])) return null;
  return m[0];
}

/** DRF's message for a datetime whose UTC form falls outside years 1–9999 (Python's datetime range). */
export const DATETIME_OVERFLOW = 'Datetime value out of range.';

/** A time within years 1–9999 in UTC, as Python's datetime holds and every database stores. */
export function inDateTimeRange(d: Date): boolean {
  const y = d.getUTCFullYear();
  return y >= 1 && y <= 9999;
}

/** ISO 8601 with `Z`, an offset or no zone (then UTC); null when malformed. May lie outside years 1–9999 once in UTC: see inDateTimeRange. */
export function parseDateTime(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const m = DATETIME.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [+m[1], +m[2], +m[3], +m[4], +m[5], +(m[6] ?? 0)];
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  let t = utcTime(y, mo, d, h, mi, s, ms);
  const zone = m[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4) || 0)];
    // Python's timezone: an offset strictly within ±24 hours.
    if (oh > 23 || om > 59) return null;
    t -= sign * (oh * 60 + om) * 60000;
  }
  return new Date(t);
}

/** Storage form of a timestamp on every database: `YYYY-MM-DD HH:MM:SS.mmm` in UTC. */
export function storeDateTime(d: Date): string {
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

/** A stored timestamp (string or Date, per driver) back to a Date. */
export function loadDateTime(raw: unknown): Date | null {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Date) return raw;
  const text = String(raw);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

/** The storage form (`storeDateTime`) as SQLite and MySQL/MariaDB give it back. */
const STORED_DATETIME = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?$/;

/**
 * `formatDateTime(loadDateTime(raw))` without the Date between: a list renders two timestamps per
 * row, and parsing each into a Date to print it again cost more than the rest of the row's columns.
 */
export function renderStoredDateTime(raw: unknown): string | null {
  if (typeof raw === 'string') {
    const m = STORED_DATETIME.exec(raw);
    if (m) {
      const ms = (m[3] ?? '').padEnd(3, '0').slice(0, 3);
      return ms === '000' ? `${m[1]}T${m[2]}Z` : `${m[1]}T${m[2]}.${ms}000Z`;
    }
  }
  return formatDateTime(loadDateTime(raw));
}

/** DRF's rendering: ISO 8601 UTC with `Z`, fractional seconds only when non-zero. */
export function formatDateTime(d: Date | null): string | null {
  if (!d || Number.isNaN(d.getTime())) return null;
  const iso = d.toISOString();
  const ms = d.getUTCMilliseconds();
  return ms === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 19)}.${String(ms).padStart(3, '0')}000Z`;
}

export function loadDate(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Date) return raw.toISOString().slice(0, 10);
  return String(raw).slice(0, 10);
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function auto(field: FieldMeta, values: Values, wc: KindWriteContext, now: () => unknown): void {
  const o = field.opts<DateOptions>();
  if (o.autoNow || (o.autoNowAdd && wc.creating)) values[field.name] = now();
}

export const dateKind: FieldKind = {
  name: 'date',
  filterType: 'date',
  decorate(proto, property, options: DateOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'date', nullable: options.nullable ?? false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => loadDate(row[i]);
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (input === '' && field.nullable) return null;
    const d = parseDate(input);
    if (!d) throw new FieldError('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
    return d;
  },
  prepare: (field, values, wc) => auto(field, values, wc, today),
  load: (field, row) => loadDate(row[field.column as string]),
  storeColumn: (_field, value) => value,
  lookups: () => NUMERIC_LOOKUPS,
  filterValue(_f, raw) {
    const d = parseDate(raw);
    if (!d) throw new FilterValueError('Enter a valid date.');
    return d;
  },
  comparison: 'scalar',
  info: (field) => baseInfo(field, 'date'),
  schema: (field) => ({ type: 'string', format: 'date', ...(field.nullable ? { nullable: true } : {}) }),
};

export const dateTimeKind: FieldKind = {
  name: 'datetime',
  filterType: 'date-time',
  decorate(proto, property, options: DateOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: Date, precision: 3, nullable: options.nullable ?? false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => renderStoredDateTime(row[i]);
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (input === '' && field.nullable) return null;
    const d = parseDateTime(input);
    if (!d) {
      throw new FieldError(
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      );
    }
    if (!inDateTimeRange(d)) throw new FieldError(DATETIME_OVERFLOW);
    return d;
  },
  prepare: (field, values, wc) => auto(field, values, wc, () => new Date()),
  load: (field, row) => loadDateTime(row[field.column as string]),
  storeColumn: (_field, value) => value instanceof Date ? storeDateTime(value) : value,
  lookups: () => NUMERIC_LOOKUPS,
  filterValue(_f, raw) {
    const d = parseDateTime(raw) ?? (parseDate(raw) ? parseDateTime(`${raw}T00:00:00Z`) : null);
    if (!d) throw new FilterValueError('Enter a valid date/time.');
    if (!inDateTimeRange(d)) throw new FilterValueError(DATETIME_OVERFLOW);
    return storeDateTime(d);
  },
  comparison: 'scalar',
  info: (field) => baseInfo(field, 'datetime'),
  schema: (field) => ({ type: 'string', format: 'date-time', ...(field.nullable ? { nullable: true } : {}) }),
};

/**
 * Five-field crontab expressions (minute hour day-of-month month day-of-week, as Celery's
 * crontab schedule takes them): `*`, values, ranges `a-b`, steps `*\/n` and `a-b/n`, lists `a,b`.
 * Times are UTC.
 */
const RANGES: ReadonlyArray<readonly [number, number]> = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 6],
];

export class CrontabError extends Error {}

export interface Crontab {
  readonly fields: ReadonlyArray<ReadonlySet<number>>;
  /** Day of month and day of week both restricted: either may match (cron's rule). */
  readonly eitherDay: boolean;
}

function parseField(text: string, [min, max]: readonly [number, number], dayOfWeek: boolean): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new CrontabError(part);
    let lo = m[1] === '*' ? min : Number(m[2]);
    let hi = m[1] === '*' ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : lo;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (dayOfWeek) {
      if (lo === 7) lo = 0;
      if (hi === 7 && lo === 0 && m[3] === undefined) hi = 0;
    }
    if (step < 1 || lo < min || hi > (dayOfWeek ? 7 : max) || lo > hi) throw new CrontabError(part);
    for (let v = lo; v <= hi; v += step) out.add(dayOfWeek && v === 7 ? 0 : v);
  }
  return out;
}

export function parseCrontab(text: string): Crontab {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5) throw new CrontabError(text);
  const fields = parts.map((p, i) => parseField(p, RANGES[i], i === 4));
  return { fields, eitherDay: parts[2] !== '*' && parts[4] !== '*' };
}

function matches(c: Crontab, d: Date): boolean {
  const [min, hour, dom, month, dow] = c.fields;
  if (!min.has(d.getUTCMinutes()) || !hour.has(d.getUTCHours()) || !month.has(d.getUTCMonth() + 1)) return false;
  const domOk = dom.has(d.getUTCDate());
  const dowOk = dow.has(d.getUTCDay());
  return c.eitherDay ? domOk || dowOk : domOk && dowOk;
}

/** The first minute strictly after `after` that the expression selects (within five years). */
export function nextCrontabTime(c: Crontab, after: Date): Date {
  const d = new Date(after.getTime());
  d.setUTCSeconds(0, 0);
  d.setUTCMinutes(d.getUTCMinutes() + 1);
  const limit = after.getTime() + 5 * 366 * 24 * 3600 * 1000;
  while (d.getTime() < limit) {
    if (!c.fields[3].has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0);
      continue;
    }
    if (matches(c, d)) return d;
    d.setUTCMinutes(d.getUTCMinutes() + 1);
  }
  throw new CrontabError('never fires');
}

import { nextCrontabTime, parseCrontab } from './crontab';

const STEP_MS: Record<string, number> = { hourly: 3600_000, daily: 86_400_000, weekly: 7 * 86_400_000 };

/**
 * When a schedule fires next after firing at `previous`: never for one-off schedules, one period
 * later (past periods skipped, not replayed) for intervals, the next selected minute for crontabs.
 */
export function nextRun(interval: string, crontab: string, previous: Date, now: Date): Date | null {
  const step = STEP_MS[interval];
  if (step) {
    let next = previous.getTime() + step;
    if (next <= now.getTime()) next += Math.ceil((now.getTime() - next + 1) / step) * step;
    return new Date(next);
  }
  if (interval === 'custom') return nextCrontabTime(parseCrontab(crontab), now);
  return null;
}

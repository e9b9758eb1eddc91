import { formatDateTime, loadDateTime, renderStoredDateTime, storeDateTime } from '../../framework/fields/date';

describe('renderStoredDateTime', () => {
  const slow = (raw: unknown) => formatDateTime(loadDateTime(raw));

  it('renders stored timestamps exactly as parsing them into a Date and formatting it does', () => {
    const instants = [0, 1, 999, 1000, 1_764_624_068_004, 1_764_624_068_000, 1_764_624_068_120, 253_402_300_799_999, -62_135_596_800_000];
    for (const t of instants) {
      const stored = storeDateTime(new Date(t));
      expect(renderStoredDateTime(stored)).toBe(slow(stored));
    }
    for (const text of ['2026-12-01 21:41:08', '2026-12-01 21:41:08.5', '2026-12-01 21:41:08.50', '2026-12-01 21:41:08.123456', '2026-12-01 21:41:08.000']) {
      expect(renderStoredDateTime(text)).toBe(slow(text));
    }
  });

  it('gives DRF’s form: fractions only when non-zero, in microseconds', () => {
    expect(renderStoredDateTime('2026-12-01 21:41:08.004')).toBe('2026-12-01T21:41:08.004000Z');
    expect(renderStoredDateTime('2026-12-01 21:41:08.000')).toBe('2026-12-01T21:41:08Z');
  });

  it('falls back to parsing for other forms (Dates from drivers, zones, nothing)', () => {
    const d = new Date(Date.UTC(2026, 11, 1, 21, 41, 8, 4));
    expect(renderStoredDateTime(d)).toBe('2026-12-01T21:41:08.004000Z');
    expect(renderStoredDateTime('2026-12-01T21:41:08+02:00')).toBe('2026-12-01T19:41:08Z');
    expect(renderStoredDateTime(null)).toBeNull();
    expect(renderStoredDateTime('not a time')).toBeNull();
  });
});

/**
 * Polls `probe` until it returns a value other than null (state, not a fixed sleep), failing after
 * `timeoutMs` with the last error the probe raised.
 */
export async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 15_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw lastError ?? new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Fixed quota windows are aligned to multiples of their length since the epoch. A test that must stay inside one
 * window waits for the next one when fewer than `marginSeconds` remain in the current one.
 */
export async function inFreshWindow(windowSeconds = 60, marginSeconds = 10): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < marginSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

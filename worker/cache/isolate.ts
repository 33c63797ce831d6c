/**
 * Registry of isolate-local state (snapshots, memo flags). Production never clears it; tests call
 * `resetIsolateState()` after wiping storage so every test starts from a fresh install.
 */
const resetters: (() => void)[] = []

export function onIsolateReset(fn: () => void) {
  resetters.push(fn)
}

export function resetIsolateState() {
  for (const fn of resetters) fn()
}

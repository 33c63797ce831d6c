/**
 * A test's own freshly migrated local state: a copy of the template the e2e global setup made
 * (test-state.ts). Test files only: it reads vitest's provided context, which a global setup
 * cannot import.
 */
import { inject } from 'vitest'
import { copyState } from './test-state'

/** A new temp folder with freshly migrated local state, for a test's own server. */
export function freshMigratedState(prefix: string): string {
  return copyState(inject('migratedState'), prefix)
}

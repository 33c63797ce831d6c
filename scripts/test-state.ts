/**
 * Local state folders (Miniflare's D1/KV/DO/R2 files) for the end-to-end servers. The e2e global
 * setup (scripts/test-server.ts) applies the real D1 migrations once per run with the wrangler CLI
 * into a template folder; every server that needs a fresh install gets a copy of it, which is
 * byte for byte what the CLI writes (a wrangler start costs tens of seconds, a copy milliseconds).
 * The global setup imports this file, so it never imports vitest at run time (only test files may:
 * fresh-state.ts reads the provided template).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The template folder with the migrations applied (read-only for tests: copy it). */
    migratedState: string
  }
}

const root = path.resolve(import.meta.dirname, '..')

/** Applies the D1 migrations of wrangler.toml to the local state in `persistDir` (`wrangler d1 migrations apply --local`). */
export function applyMigrations(persistDir: string): void {
  execFileSync(process.execPath, [path.join(root, 'node_modules/wrangler/bin/wrangler.js'), 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  })
}

/** A new temp folder holding a copy of `template` (no server may be running on the template). */
export function copyState(template: string, prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  cpSync(template, dir, { recursive: true })
  return dir
}

/**
 * The deploy path, offline: the real wrangler.toml bundles with every binding, exports and migrates
 * every Durable Object, fits the size limit and its D1 migrations apply; the shipped placeholder
 * ids are reported as the things to fix before a first deploy.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { deployChecks, formatChecks, idChecks } from './deploy-check'

describe('npm run deploy:check', () => {
  it('proves the bundle, bindings, Durable Objects and migrations, and names the placeholder ids', () => {
    const checks = deployChecks({ cwd: path.resolve(import.meta.dirname, '../..') })
    const failing = checks.filter((c) => !c.ok).map((c) => c.label)
    expect(failing).toEqual(['D1 database id is the placeholder', 'KV namespace id is the placeholder'])
    const labels = checks.map((c) => c.label)
    expect(labels).toContain('Worker bundles (wrangler deploy --dry-run)')
    expect(labels.find((l) => l.startsWith('bindings: '))).toMatch(/\bDB\b.*\bCACHE\b.*\bASSETS\b/)
    expect(labels).toContain('every Durable Object class is exported')
    expect(labels).toContain('every Durable Object class has a migration')
    expect(labels).toContain('D1 migrations apply to an empty database (migrations/)')
    expect(labels.some((l) => /^bundle is [\d.]+ MB compressed/.test(l))).toBe(true)
    expect(formatChecks(checks)).toContain('→ run `npx wrangler d1 create gateway`')
  }, 180_000)

  it('accepts real ids', () => {
    const checks = idChecks({
      d1_databases: [{ binding: 'DB', database_name: 'gateway', database_id: '3f1c9a52-7d4e-4b8a-9c21-5e6f7a8b9c0d' }],
      kv_namespaces: [{ binding: 'CACHE', id: '9b2e4c6d8f0a1b3c5d7e9f1a2b4c6d8e' }],
    })
    expect(checks.every((c) => c.ok)).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { auditDiff, isSecretField } from './audit'

describe('auditDiff', () => {
  it('keeps only changed fields, with old and new values', () => {
    const diff = auditDiff({ id: 1, name: 'a', weight: 1, models: 'x,y' }, { id: 1, name: 'b', weight: 1, models: 'x' })
    expect(diff).toEqual({ name: { from: 'a', to: 'b' }, models: { from: 'x,y', to: 'x' } })
  })

  it('records secrets as changed/unchanged only, at any depth and by the secret settings list', () => {
    const before = { key: 'sk-old-secret-value', password: 'hash-1', accessToken: 'tok-1', config: { app_secret: 's1', merchant: 'm' } }
    const after = { key: 'sk-new-secret-value', password: 'hash-1', accessToken: 'tok-2', config: { app_secret: 's1', merchant: 'n' } }
    const diff = auditDiff(before, after)
    expect(diff).toEqual({ key: 'changed', password: 'unchanged', accessToken: 'changed', 'config.app_secret': 'unchanged', 'config.merchant': { from: 'm', to: 'n' } })
    expect(auditDiff({ SMTPToken: 'a', SystemName: 'x' }, { SMTPToken: 'b', SystemName: 'y' })).toEqual({ SMTPToken: 'changed', SystemName: { from: 'x', to: 'y' } })
    // A settings write {key, value} names its secret in `key`.
    expect(auditDiff(undefined, { key: 'TurnstileSecretKey', value: 'very-secret' })).toEqual({ key: 'changed', value: 'changed' })
    for (const d of [diff, auditDiff(undefined, after), auditDiff(before, undefined)]) {
      const text = JSON.stringify(d)
      for (const secret of ['sk-old-secret-value', 'sk-new-secret-value', 'hash-1', 'tok-1', 'tok-2', 's1']) expect(text).not.toContain(secret)
    }
  })

  it('marks declared secret paths whatever their name, and leaves ignored fields out', () => {
    expect(
      auditDiff({ config: { pem: 'A' }, updatedAt: 1, name: 'n' }, { config: { pem: 'B' }, updatedAt: 2, name: 'n' }, { secrets: ['config.pem'], ignore: ['updatedAt'] })
    ).toEqual({ 'config.pem': 'changed' })
  })

  it('redacts key-like strings inside ordinary fields and cuts long texts', () => {
    const diff = auditDiff(undefined, { other: 'use sk-abcdefghijklmnop for it', remark: 'x'.repeat(1000) })
    expect(JSON.stringify(diff)).not.toContain('sk-abcdefghijklmnop')
    expect(((diff.remark as { to: string }).to as string).length).toBeLessThanOrEqual(301)
  })

  it('shows a create as `to` values and a delete as `from` values', () => {
    expect(auditDiff(undefined, { name: 'k', remain_quota: 5 })).toEqual({ name: { to: 'k' }, remain_quota: { to: 5 } })
    expect(auditDiff({ name: 'k', key: 'abc' }, undefined)).toEqual({ name: { from: 'k' }, key: 'changed' })
  })

  it('reads secret field names the way the codebase names them', () => {
    for (const name of ['key', 'api_key', 'password', 'SMTPToken', 'client_secret', 'GitHubClientSecret', 'webhook_secret', 'code', 'backup_codes'])
      expect(isSecretField(name)).toBe(true)
    for (const name of ['name', 'base_url', 'max_tokens', 'models', 'remain_quota', 'keyword']) expect(isSecretField(name)).toBe(false)
  })
})

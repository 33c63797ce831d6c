import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { saveOptions } from '../settings/store'
import { createUser } from '../test/factories'
import { formatBalance, quotaCrossing, remindLowQuota } from './quota-reminder'
import { mailsTo, testSmtpOptions, uniqueEmail } from '../test/test-smtp'

async function userWithEmail(email: string) {
  const { id } = await createUser({ quota: 0 })
  await env.DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(email, id).run()
  return id
}

describe('quota crossing', () => {
  it('fires only when the balance goes from at/above the threshold to below it, or down to zero', () => {
    expect(quotaCrossing(1500, 900, 1000)).toBe('low')
    expect(quotaCrossing(1000, 999, 1000)).toBe('low')
    expect(quotaCrossing(900, 800, 1000)).toBeNull()
    expect(quotaCrossing(2000, 1000, 1000)).toBeNull()
    expect(quotaCrossing(500, 0, 1000)).toBe('exhausted')
    expect(quotaCrossing(1500, -20, 1000)).toBe('exhausted')
    expect(quotaCrossing(0, -5, 1000)).toBeNull()
    expect(quotaCrossing(1500, 10, 0)).toBeNull()
  })

  it('formats the balance as currency or raw quota like the console', async () => {
    expect(formatBalance(await saveOptions(env, {}), 250000)).toBe('$0.50')
    expect(formatBalance(await saveOptions(env, { DisplayInCurrencyEnabled: 'false' }), 250000)).toBe('250000 quota')
  })
})

describe('low-quota reminder mail', () => {
  it('mails once per crossing with the balance and the top-up link', async () => {
    await saveOptions(env, { ...testSmtpOptions(), QuotaRemindThreshold: '100000', SystemName: 'Quota Site', ServerAddress: 'https://gw.example.com' })
    const email = uniqueEmail('quota')
    const userId = await userWithEmail(email)

    expect(await remindLowQuota(env, { userId, before: 200000, after: 150000 })).toBeNull()
    expect(await remindLowQuota(env, { userId, before: 150000, after: 50000 })).toBe('low')
    // The same crossing reported again by an overlapping request is absorbed.
    expect(await remindLowQuota(env, { userId, before: 120000, after: 60000 })).toBeNull()
    expect(await remindLowQuota(env, { userId, before: 50000, after: 40000 })).toBeNull()
    const [low] = await mailsTo(email)
    expect(low!.subject).toBe('Quota Site: your quota is running low')
    expect(low!.text).toContain('the balance is $0.10')
    expect(low!.text).toContain('https://gw.example.com/panel/topup')

    expect(await remindLowQuota(env, { userId, before: 40000, after: 0 })).toBe('exhausted')
    const mails = await mailsTo(email)
    expect(mails).toHaveLength(2)
    expect(mails[1]!.subject).toBe('Quota Site: your quota is used up')
  })

  it('skips users without an email, credits, and sites without SMTP', async () => {
    const withoutEmail = (await createUser({ quota: 0 })).id
    await saveOptions(env, { ...testSmtpOptions(), QuotaRemindThreshold: '1000' })
    expect(await remindLowQuota(env, { userId: withoutEmail, before: 2000, after: 10 })).toBeNull()
    const email = uniqueEmail('nosmtp')
    const userId = await userWithEmail(email)
    expect(await remindLowQuota(env, { userId, before: 10, after: 2000 })).toBeNull()
    await saveOptions(env, { SMTPServer: '' })
    expect(await remindLowQuota(env, { userId, before: 2000, after: 10 })).toBeNull()
    expect(await mailsTo(email)).toEqual([])
  })

  it('does not throw when delivery fails, and tries again on the next crossing', async () => {
    await saveOptions(env, { ...testSmtpOptions({ SMTPToken: 'wrong-password' }), QuotaRemindThreshold: '1000' })
    const email = uniqueEmail('flaky')
    const userId = await userWithEmail(email)
    expect(await remindLowQuota(env, { userId, before: 2000, after: 10 })).toBeNull()
    await saveOptions(env, testSmtpOptions())
    expect(await remindLowQuota(env, { userId, before: 1500, after: 500 })).toBe('low')
    expect(await mailsTo(email)).toHaveLength(1)
  })
})

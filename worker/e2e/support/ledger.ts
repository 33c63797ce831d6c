/** e2e check that a user's balance moved by exactly the quota of their consume log rows (settling runs in the background). */
import { expect } from 'vitest'
import type { ApiSession } from './api'

export async function expectBalanceMatchesLogs(user: ApiSession, startQuota: number, minLogs: number) {
  let last = { quota: 0, logged: 0, rows: 0 }
  const end = Date.now() + 15_000
  while (Date.now() < end) {
    const quota = (await user.ok<{ quota: number }>('GET', '/api/user/self')).quota
    const logs = await user.ok<{ data: { quota: number }[] }>('GET', '/api/log/self?type=2&page_size=100')
    last = { quota, logged: logs.data.reduce((s, l) => s + l.quota, 0), rows: logs.data.length }
    if (last.rows >= minLogs && startQuota - last.quota === last.logged) break
    await new Promise((r) => setTimeout(r, 250))
  }
  expect(last.rows).toBeGreaterThanOrEqual(minLogs)
  expect(last.logged).toBeGreaterThan(0)
  expect(startQuota - last.quota).toBe(last.logged)
}

/**
 * The lease report loop is bounded: with waitUntil work cancelled the way Cloudflare cancels it
 * (30 s after the answer; Miniflare does not, so the test switch does), a minute of continuous
 * traffic on one key still reports every request exactly once; and a loop the runtime cancelled
 * early stops counting as running once its flag is stale, so the next request starts another.
 */
import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { setTestClockOffset } from '../lib/clock'
import { createToken, createUser, ledger, wallet } from '../test/factories'
import { cancelReportLoopsAfter, holdFromLease, settleToLease } from './wallet-lease'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const log = (reqId: string, tokenId: number) => ({ type: 2, createdAt: Math.floor(Date.now() / 1000), tokenId, modelName: 'm', requestId: reqId })

/** Consume rows of the user in D1 once the wallet flushed, without touching this isolate's leases. */
async function reported(userId: number): Promise<number> {
  await wallet(userId).flush()
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 2').bind(userId).first<{ n: number }>()
  return row!.n
}

async function waitForReports(userId: number, count: number, ms: number) {
  const until = Date.now() + ms
  while ((await reported(userId)) < count && Date.now() < until) await sleep(250)
  return reported(userId)
}

/** `workers` clients each sending one request after another from the lease (each in its own request context) for `ms`. */
async function traffic(userId: number, tokenId: number, ms: number, workers = 8) {
  const who = { userId, tokenId, rpm: 0 }
  const stub = wallet(userId)
  let served = 0
  const until = Date.now() + ms
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        const ctx = createExecutionContext()
        const hold = await holdFromLease(stub, ctx, who, 100)
        if (hold) {
          const reqId = `w${w}-${i}`
          void settleToLease(stub, ctx, hold, { reqId, quota: 10, log: log(reqId, tokenId) })
          served++
        }
        await sleep(1)
      }
    })
  )
  return served
}

afterEach(() => {
  cancelReportLoopsAfter(undefined)
  setTestClockOffset({ TEST_CLOCK: '1' }, 0)
})

describe('lease report loop under waitUntil cancellation', () => {
  it('reports every request of 60 s of continuous traffic when waitUntil work is cancelled after 30 s', { timeout: 150_000 }, async () => {
    const user = await createUser({ quota: 100_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    cancelReportLoopsAfter(30_000)
    const served = await traffic(user.id, token.id, 60_000)
    expect(served).toBeGreaterThan(1000)
    expect(await waitForReports(user.id, served, 30_000)).toBe(served)
    cancelReportLoopsAfter(undefined)
    expect(await ledger(user.id)).toMatchObject({
      quota: 100_000_000 - 10 * served,
      used_quota: 10 * served,
      request_count: served,
      consumeLogs: served,
      loggedQuota: 10 * served,
    })
  })

  it('a loop cancelled early counts as free once its flag is stale, and the next request reports what it left', async () => {
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    // Every loop is cancelled at its first wait after 0 ms: it sends one report, then never runs again.
    cancelReportLoopsAfter(0)
    const first = await traffic(user.id, token.id, 400, 2)
    await sleep(200)
    const stuck = await reported(user.id)
    expect(stuck).toBeLessThan(first)
    // 26 s later (the test clock) the old flag is stale: the next request starts a loop that sends everything.
    cancelReportLoopsAfter(undefined)
    setTestClockOffset({ TEST_CLOCK: '1' }, 26_000)
    const second = await traffic(user.id, token.id, 100, 1)
    expect(await waitForReports(user.id, first + second, 10_000)).toBe(first + second)
    expect(await ledger(user.id)).toMatchObject({ consumeLogs: first + second, loggedQuota: 10 * (first + second) })
  })
})

/**
 * Posting to a client's task hook: through env.PUBLIC_NETWORK when the runtime gives one (npm start:
 * a workerd network service that reaches public addresses only), else through the global fetch
 * (Cloudflare); a hook the users' guard refuses is never called by either.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { postToClientHook } from './client-hook'

/** A Fetcher that records the requests it carries and answers 200. */
function network() {
  const seen: { url: string; method: string; redirect: string; body: string; signal: boolean }[] = []
  const fetcher = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(input), method: init?.method ?? 'GET', redirect: init?.redirect ?? 'follow', body: String(init?.body), signal: Boolean(init?.signal) })
      return new Response('ok')
    },
  } as unknown as Fetcher
  return { fetcher, seen }
}

describe('client task hooks', () => {
  const globalFetch = vi.spyOn(globalThis, 'fetch')
  afterEach(() => globalFetch.mockReset())

  it('are sent through the public-only network binding when the runtime has one', async () => {
    globalFetch.mockResolvedValue(new Response('ok'))
    const { fetcher, seen } = network()
    await postToClientHook({ ...env, PUBLIC_NETWORK: fetcher }, 'https://hooks.example.com/cb?job=7', { task_id: '1', task_status: 'succeed' }, 'kling task 1')
    expect(seen).toEqual([{ url: 'https://hooks.example.com/cb?job=7', method: 'POST', redirect: 'manual', body: '{"task_id":"1","task_status":"succeed"}', signal: true }])
    expect(globalFetch).not.toHaveBeenCalled()
  })

  it('use the global fetch without the binding (Cloudflare)', async () => {
    globalFetch.mockResolvedValue(new Response('ok'))
    await postToClientHook({ ...env, PUBLIC_NETWORK: undefined }, 'https://hooks.example.com/cb', { id: '2' }, 'mj task 2')
    expect(globalFetch).toHaveBeenCalledTimes(1)
    expect(String(globalFetch.mock.calls[0]![0])).toBe('https://hooks.example.com/cb')
  })

  it("never call a hook the users' guard refuses, on either path", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { fetcher, seen } = network()
    for (const hook of ['http://hooks.example.com/cb', 'https://127.1:2019/stop', 'https://[::ffff:127.0.0.1]/', 'https://localhost./x', 'https://10.0.0.5.nip.io.local/']) {
      await postToClientHook({ ...env, PUBLIC_NETWORK: fetcher }, hook, {}, 'kling task 3')
      await postToClientHook({ ...env, PUBLIC_NETWORK: undefined }, hook, {}, 'kling task 3')
    }
    expect(seen).toEqual([])
    expect(globalFetch).not.toHaveBeenCalled()
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/"msg":"client hook refused".*"task":"kling task 3","problem":"must/))
    error.mockRestore()
  })
})

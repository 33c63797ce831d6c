/**
 * Midjourney notify end to end: the mock midjourney-proxy calls the gateway's per-task hook at each
 * state change, so the task is finished in the gateway before anyone polls the upstream (no
 * list-by-condition call for this channel's key). With MjNotifyEnabled a client's own hook on this
 * machine is refused at submit (clients' hooks must be public https URLs, client-hook.ts), so the
 * receiver here hears nothing; forwarding to an accepted hook is covered by mj-notify.test.ts.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { rootSession, userSession, type ApiSession } from './support/api'

const suffix = Date.now().toString(36).slice(-6)
const CHANNEL_KEY = `mj-notify-${suffix}`

async function mj(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${inject('gatewayUrl')}${path}`, {
    method,
    headers: { 'mj-api-secret': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}

/** Upstream list-by-condition calls made with this test's channel key (the mock counts per key and path). */
async function upstreamPolls(): Promise<number> {
  const stats = (await (await fetch(`${inject('mockUrl')}/__stats`)).json()) as Record<string, number>
  return stats[`${CHANNEL_KEY} /mj/task/list-by-condition`] ?? 0
}

describe('midjourney notify hook', () => {
  let root: ApiSession
  let key: string
  const received: any[] = []
  const receiver = http.createServer((req, res) => {
    let text = ''
    req.on('data', (c) => (text += c))
    req.on('end', () => {
      received.push(JSON.parse(text))
      res.end('ok')
    })
  })

  beforeAll(async () => {
    root = await rootSession()
    await root.call('POST', '/api/prices/single', { model: 'mj_imagine', type: 'times', channel_type: 34, input: 50, output: 0 })
    await root.ok('POST', '/api/channel/', {
      type: 34,
      name: `mj-notify-${suffix}`,
      key: CHANNEL_KEY,
      base_url: inject('mockUrl'),
      models: ['mj_imagine'],
      group: ['default'],
      priority: 1000,
    })
    const user = await userSession(`mn${suffix}`)
    const id = (await user.ok<{ id: number }>('GET', '/api/user/self')).id
    await root.ok('POST', `/api/user/quota/${id}`, { quota: 1_000_000, remark: 'notify e2e' })
    key = (await user.ok<{ key: string }>('POST', '/api/token/', { name: 'notify key', unlimited_quota: true })).key
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    await root.ok('PUT', '/api/option/', { key: 'MjNotifyEnabled', value: 'true' })
  })

  afterAll(async () => {
    await root?.call('PUT', '/api/option/', { key: 'MjNotifyEnabled', value: 'false' })
    receiver.close()
  })

  it('the task finishes from the callback alone; a client hook on this machine is refused', async () => {
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    const refused = await mj(key, 'POST', '/mj/submit/imagine', { prompt: 'a quiet harbour', notifyHook: hook })
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({ code: 4, result: null })
    expect(refused.json.description).toMatch(/^notifyHook: must be an https URL/)
    const submit = await mj(key, 'POST', '/mj/submit/imagine', { prompt: 'a quiet harbour' })
    expect(submit.json).toMatchObject({ code: 1 })
    const id = submit.json.result as string
    // The mock finishes after three 1 s steps and calls the gateway's hook; the queue's first poll is
    // 15 s away. A fetch of a running task would poll the upstream, so wait before the one fetch.
    await new Promise((r) => setTimeout(r, 6000))
    const task = (await mj(key, 'GET', `/mj/task/${id}/fetch`)).json
    expect(task).toMatchObject({ id, status: 'SUCCESS', progress: '100%' })
    expect(await upstreamPolls()).toBe(0)
    expect(received).toEqual([])
  })
})

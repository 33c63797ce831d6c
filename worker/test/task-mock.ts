/**
 * The midjourney-proxy and Suno-API mock of scripts/mock-tasks.mjs behind the fetch-level upstream
 * mock (https://upstream.test/mj/…, /suno/…), with a clock the test moves by hand. The notify
 * callbacks the mock would send (notifyHook) wait in a list until the clock passes them; the test
 * delivers them itself. https://upstream.test/img/<name> answers a small PNG and /redirect-to-metadata
 * redirects to a cloud-metadata address (image proxy tests). `useTaskUpstream()` installs the mock
 * around every test of a file; `taskFixture()` prices the task models and creates the channel, a
 * user with TASK_START units and their key.
 */
import { afterEach, beforeEach } from 'vitest'
import { createTaskMock } from '../../scripts/mock-tasks.mjs'
import { createChannel, createToken, createUser, setPrice } from './factories'
import { mockUpstream } from './upstream-mock'

export const MOCK_PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

export interface PendingNotify {
  hook: string
  due: number
  dto: () => Record<string, unknown>
}

export function mockTaskUpstream(stepMs = 1000) {
  let clock = Date.now()
  const pending: PendingNotify[] = []
  const tasks = createTaskMock({
    now: () => clock,
    stepMs,
    onTransition: (hook: string, delayMs: number, dto: () => Record<string, unknown>) => pending.push({ hook, due: clock + delayMs, dto }),
  })
  const upstream = mockUpstream((req, body) => {
    const path = new URL(req.url).pathname
    if (path.startsWith('/img/')) return new Response(MOCK_PNG, { headers: { 'content-type': 'image/png' } })
    if (path === '/redirect-to-metadata') return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } })
    if (!tasks.handles(path)) return undefined
    const answer = tasks.handle(req.method, path, (name) => req.headers.get(name), body)
    return Response.json(answer.body, { status: answer.status })
  })
  return {
    ...upstream,
    /** The mock's own task stores (upstream ids → tasks). */
    store: tasks.tasks,
    /** Move the mock's clock: one step = SUBMITTED → IN_PROGRESS, three = finished. */
    advance: (steps: number) => {
      clock += steps * stepMs
    },
    /** The notify calls whose time has come (removed from the list), each with the task as it is now. */
    dueNotifies: () => {
      const due = pending.filter((p) => p.due <= clock)
      for (const p of due) pending.splice(pending.indexOf(p), 1)
      return due.map((p) => ({ hook: p.hook, body: p.dto() }))
    },
  }
}

/** Installs a fresh mockTaskUpstream() before every test of the file and restores fetch after it. */
export function useTaskUpstream(): { mock: ReturnType<typeof mockTaskUpstream> } {
  const holder = {} as { mock: ReturnType<typeof mockTaskUpstream> }
  beforeEach(() => {
    holder.mock = mockTaskUpstream()
  })
  afterEach(() => holder.mock.restore())
  return holder
}

/** The balance `taskFixture()` gives its user. */
export const TASK_START = 1_000_000

/** Per-call prices for `prices` (model → units), the task channel (models default to the priced ones), a user and their key. */
export async function taskFixture(prices: Record<string, number>, channel: Parameters<typeof createChannel>[0]) {
  for (const [model, price] of Object.entries(prices)) await setPrice(model, price, 0, 'times')
  const created = await createChannel({ models: Object.keys(prices).join(','), ...channel })
  const user = await createUser({ quota: TASK_START })
  const token = await createToken(user.id)
  return { channel: created, user, key: token.key }
}

/**
 * The midjourney-proxy and Suno-API mock of scripts/mock-tasks.mjs behind the fetch-level upstream
 * mock (https://upstream.test/mj/…, /suno/…), with a clock the test moves by hand.
 */
import { createTaskMock } from '../../scripts/mock-tasks.mjs'
import { mockUpstream } from './upstream-mock'

export function mockTaskUpstream(stepMs = 1000) {
  let clock = Date.now()
  const tasks = createTaskMock({ now: () => clock, stepMs })
  const upstream = mockUpstream((req, body) => {
    const path = new URL(req.url).pathname
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
  }
}

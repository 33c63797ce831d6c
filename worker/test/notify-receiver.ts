/**
 * Test-only alert receiver at https://hooks.test: records every POST a notify channel makes (URL,
 * headers, JSON body) and answers with a status the test chooses; other URLs go to the fetch (or
 * fetch mock) that was there before.
 */
import { vi } from 'vitest'

export interface HookReceiver {
  got: { url: string; headers: Headers; body: any }[]
  answerWith: (status: number) => number
}

export function receiver(): HookReceiver {
  const got: HookReceiver['got'] = []
  let answer = 200
  // Another fetch mock (e.g. upstream-mock.ts) keeps answering what is not for the receiver.
  const current = globalThis.fetch
  const real = (vi.isMockFunction(current) ? current.getMockImplementation() : undefined) ?? current
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    // The URL alone decides: making a Request of another call's input would use up its body.
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!url.startsWith('https://hooks.test')) return real(input, init)
    const req = new Request(input, init)
    got.push({ url: req.url, headers: req.headers, body: await req.json() })
    return new Response(answer === 200 ? 'ok' : `failed at ${req.url}`, { status: answer })
  })
  return { got, answerWith: (s: number) => (answer = s) }
}

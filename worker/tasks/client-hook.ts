/**
 * A client's own task hook (Midjourney `notifyHook`, Kling `callback_url`): which URLs the gateway
 * may call (no credentials, no private or local addresses unless private upstreams are allowed),
 * and the POST of an updated task to it — through the same guard, no redirects followed, a short
 * timeout, failures logged and never retried.
 */
import { outboundUrlProblem, privateUpstreamsAllowed } from '../lib/outbound-url'

const FORWARD_TIMEOUT_MS = 5000

/** What is wrong with a client's hook (undefined when it may be called). Query strings are allowed. */
export function clientHookProblem(env: Env, hook: string): string | undefined {
  let url: URL
  try {
    url = new URL(hook)
  } catch {
    return 'must be a valid URL'
  }
  if (url.username || url.password) return 'must not carry credentials'
  return outboundUrlProblem(`${url.origin}${url.pathname}`, privateUpstreamsAllowed(env))
}

/** POST `payload` to the client's hook; `label` names the task in the log when it fails. */
export async function postToClientHook(env: Env, hook: string, payload: unknown, label: string): Promise<void> {
  const problem = clientHookProblem(env, hook)
  if (problem) return console.error(`${label}: hook refused, it ${problem}`)
  try {
    const res = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    })
    await res.body?.cancel()
  } catch (err) {
    console.error(`${label}: hook failed: ${(err as Error).message}`)
  }
}

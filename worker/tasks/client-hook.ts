/**
 * A client's own task hook (Midjourney `notifyHook`, Kling `callback_url`): which URLs the gateway
 * may call — the strict guard for URLs users supply (https, public hosts only, no credentials,
 * whatever ALLOW_PRIVATE_UPSTREAMS says; outbound-url.ts userUrlProblem) — and the POST of an
 * updated task to it: checked again, no redirects followed, a short timeout, failures logged and
 * never retried. Under `npm start` the POST leaves through env.PUBLIC_NETWORK, a workerd network
 * service that reaches public addresses only, so a DNS name that resolves to a private or loopback
 * address fails there too; on Cloudflare that binding is absent and the global fetch is used.
 */
import { userUrlProblem } from '../lib/outbound-url'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'task-hook' })

const FORWARD_TIMEOUT_MS = 5000

/** What is wrong with a client's hook (undefined when it may be called). Query strings are allowed. */
export const clientHookProblem = (hook: string): string | undefined => userUrlProblem(hook)

/** POST `payload` to the client's hook; `label` names the task in the log when it fails. */
export async function postToClientHook(env: Env, hook: string, payload: unknown, label: string): Promise<void> {
  const problem = clientHookProblem(hook)
  if (problem) return serverLog.error('client hook refused', { task: label, problem })
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    redirect: 'manual',
    signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
  }
  try {
    const res = await (env.PUBLIC_NETWORK ? env.PUBLIC_NETWORK.fetch(hook, init) : fetch(hook, init))
    await res.body?.cancel()
  } catch (err) {
    serverLog.error('client hook failed', { task: label, error: err })
  }
}

/**
 * The one answer to "which address is this client?", used by rate limits, IP whitelists, Turnstile,
 * sessions and logs. By default it is `CF-Connecting-IP`: on Cloudflare the edge sets it to the real
 * client; on the self-hosted runtime (workerd via Miniflare) it is the connection's peer. Headers a
 * proxy would set (`X-Real-IP`, `X-Forwarded-For`, `True-Client-IP`) are believed only when the
 * operator names one in the CLIENT_IP_HEADER variable because a trusted proxy sits in front;
 * otherwise anyone could pick their address. A value that is not an IP address is `unknown`
 * (matches no whitelist); no header at all means an in-process call (loopback).
 * Under `npm start` a client could send CF-Connecting-IP itself: the entry (worker/index.ts with
 * lib/self-hosted.ts) replaces it with what the socket knows before any of this runs.
 */
import { env } from 'cloudflare:workers'
import { isIp } from './cidr'
import { config } from './env'

interface HeaderSource {
  header(name: string): string | undefined
}

/** `vars` defaults to the Worker's env; the setup gate passes the request's own env. */
export function clientIp(req: HeaderSource, vars: object = env): string {
  // The proxy header the operator trusts, if any (CLIENT_IP_HEADER, checked by lib/env.ts).
  const proxy = config(vars).clientIpHeader
  if (proxy) {
    const raw = req.header(proxy)
    // X-Forwarded-For: the right-most entry is the one the trusted proxy appended.
    const value = (proxy === 'x-forwarded-for' ? raw?.split(',').at(-1) : raw)?.trim()
    if (value) return isIp(value) ? value : 'unknown'
  }
  const peer = req.header('cf-connecting-ip')?.trim()
  if (peer === undefined) return '127.0.0.1'
  return isIp(peer) ? peer : 'unknown'
}

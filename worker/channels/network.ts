/**
 * The network a channel's supplier calls leave through: its proxy when the channel has one
 * (lib/proxy, over `cloudflare:sockets` — or the `DIRECT_NETWORK` binding's sockets under
 * `npm start`, which trust the same certificates as its fetch), otherwise `DIRECT_NETWORK` under
 * `npm start` and the runtime's own fetch on Cloudflare (undefined). The relay, channel tests and
 * balance queries all ask here. A stored proxy the outbound rules refuse (an imported row, or
 * rules tightened since) fails every call with the reason instead of going direct.
 */
import { connect } from 'cloudflare:sockets'
import { proxyUrlProblem, privateUpstreamsAllowed } from '../lib/outbound-url'
import { type Network, proxyNetwork } from '../lib/proxy/proxy-fetch'
import { ProxyError } from '../lib/proxy/tunnel'

export function channelNetwork(env: Env, channel: { proxy?: string | null }): Network | undefined {
  const proxy = channel.proxy?.trim()
  if (!proxy) return env.DIRECT_NETWORK
  const problem = proxyUrlProblem(proxy, privateUpstreamsAllowed(env))
  if (problem) return { fetch: () => Promise.reject(new ProxyError(`the channel's proxy ${problem}`)) }
  const direct = env.DIRECT_NETWORK
  return proxyNetwork(proxy, direct ? (address, options) => direct.connect(address, options) : connect)
}

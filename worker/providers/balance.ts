/**
 * Account balance queries of the suppliers that expose one (OpenAI-style billing endpoints, which
 * many OpenAI-compatible relays also serve; DeepSeek; Moonshot; SiliconFlow; OpenRouter). Pure: each
 * query is the requests to send and a parser of their JSON bodies into USD (or the supplier's currency).
 */
import type { ChannelInfo } from './types'
import { joinUrl } from './url'

export interface BalanceQuery {
  requests(channel: ChannelInfo, defaultBaseUrl: string): Request[]
  parse(bodies: any[]): number
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const base = (ch: ChannelInfo, fallback: string) => ch.baseUrl || fallback

/** OpenAI billing: hard limit of the subscription minus this month's usage (in cents). */
export const openAIBalance: BalanceQuery = {
  requests(ch, fallback) {
    const now = new Date()
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10)
    const end = new Date(now.getTime() + 86400_000).toISOString().slice(0, 10)
    return [
      new Request(joinUrl(base(ch, fallback), '/v1/dashboard/billing/subscription'), { headers: bearer(ch.key) }),
      new Request(joinUrl(base(ch, fallback), `/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`), { headers: bearer(ch.key) }),
    ]
  },
  parse([subscription, usage]) {
    return Number(subscription?.hard_limit_usd ?? 0) - Number(usage?.total_usage ?? 0) / 100
  },
}

export const deepseekBalance: BalanceQuery = {
  requests: (ch, fallback) => [new Request(joinUrl(base(ch, fallback), '/user/balance'), { headers: bearer(ch.key) })],
  parse: ([body]) => Number(body?.balance_infos?.[0]?.total_balance ?? 0),
}

export const moonshotBalance: BalanceQuery = {
  requests: (ch, fallback) => [new Request(joinUrl(base(ch, fallback), '/v1/users/me/balance'), { headers: bearer(ch.key) })],
  parse: ([body]) => Number(body?.data?.available_balance ?? 0),
}

export const siliconflowBalance: BalanceQuery = {
  requests: (ch, fallback) => [new Request(joinUrl(base(ch, fallback), '/v1/user/info'), { headers: bearer(ch.key) })],
  parse: ([body]) => Number(body?.data?.totalBalance ?? body?.data?.balance ?? 0),
}

/** OpenRouter credits: purchased minus used (USD). */
export const openRouterBalance: BalanceQuery = {
  requests: (ch, fallback) => [new Request(joinUrl(base(ch, fallback), '/v1/credits'), { headers: bearer(ch.key) })],
  parse: ([body]) => Number(body?.data?.total_credits ?? 0) - Number(body?.data?.total_usage ?? 0),
}

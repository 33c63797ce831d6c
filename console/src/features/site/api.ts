/**
 * Site information and public content: GET /api/status at startup — cached in the
 * browser (`siteInfo`, `quota_per_unit`, `display_in_currency`) and used as the fallback when the
 * call fails — plus the notice, about and home-page content queries.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import i18n, { i18nReady } from '@/i18n'
import { api } from '@/lib/api-client'
import { DEFAULT_QUOTA_PER_UNIT } from '@/lib/format'
import { notify } from '@/lib/notify'
import { STORAGE_KEYS, readJson, writeJson, writeString } from '@/lib/storage'
import type { SiteInfo } from '@contract/site'

export const DEFAULT_SITE_INFO: SiteInfo = {
  setup_needed: false,
  setup_code_required: false,
  version: '',
  console_build: '',
  start_time: 0,
  system_name: 'AI Gateway',
  logo: '',
  footer_html: '',
  server_address: '',
  top_up_link: '',
  chat_link: '',
  chat_links: '',
  quota_per_unit: DEFAULT_QUOTA_PER_UNIT,
  display_in_currency: true,
  display_token_stat: true,
  password_login: true,
  password_register: true,
  register_enabled: true,
  email_verification: false,
  github_oauth: false,
  github_client_id: '',
  oidc_auth: false,
  wechat_login: false,
  wechat_qrcode: '',
  lark_login: false,
  lark_client_id: '',
  turnstile_check: false,
  turnstile_site_key: '',
  telegram_bot: '',
  mj_notify_enabled: false,
  chat_cache_enabled: false,
  payment_usd_rate: 7.3,
  payment_min_amount: 1,
  recharge_discount: '',
}

function applySiteInfo(info: SiteInfo) {
  if (info.system_name) document.title = info.system_name
}

function saveSiteInfo(info: SiteInfo) {
  writeJson(STORAGE_KEYS.siteInfo, info)
  writeString(STORAGE_KEYS.quotaPerUnit, String(info.quota_per_unit))
  writeString(STORAGE_KEYS.displayInCurrency, String(info.display_in_currency))
}

async function fetchSiteInfo(): Promise<SiteInfo> {
  try {
    const info = { ...DEFAULT_SITE_INFO, ...(await api.get<Partial<SiteInfo>>('/api/status')) }
    saveSiteInfo(info)
    applySiteInfo(info)
    return info
  } catch {
    await i18nReady
    notify.error(i18n.t('common:errors.cannotConnect'))
    const cached = { ...DEFAULT_SITE_INFO, ...readJson<Partial<SiteInfo>>(STORAGE_KEYS.siteInfo) }
    applySiteInfo(cached)
    return cached
  }
}

/** Never rejects: a failed call falls back to the last saved site info. */
export const siteInfoQueryOptions = queryOptions({
  queryKey: ['site', 'status'],
  queryFn: fetchSiteInfo,
  staleTime: 5 * 60_000,
})

export function useSiteInfo(): SiteInfo {
  return useQuery(siteInfoQueryOptions).data ?? DEFAULT_SITE_INFO
}

const contentQuery = (key: string, path: string) => queryOptions({ queryKey: ['site', key], queryFn: () => api.get<string>(path), staleTime: 60_000 })

export const noticeQueryOptions = contentQuery('notice', '/api/notice')
export const aboutQueryOptions = contentQuery('about', '/api/about')
export const homeContentQueryOptions = contentQuery('home', '/api/home_page_content')

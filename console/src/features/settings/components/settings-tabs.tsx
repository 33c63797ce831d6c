/**
 * The three tabs of the settings page and the sections each one holds, in order:
 * operation (general, chat links, quota, monitoring, model routing, log, payment, rate, output limits and image
 * prices, content safety, other), system (server,
 * login, email domains, SMTP, GitHub, WeChat, Lark, OIDC, Turnstile, Telegram bot, Prometheus metrics, OpenTelemetry traces) and other (notice, branding,
 * home, about, footer, and the one-api / one-hub import).
 */
import { Fragment, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { OptionMap } from '../api'
import { LogSection, PaymentSection, RateSection } from './settings-billing'
import { ChatLinksSection } from './settings-chat-links'
import { LimitsSection } from './settings-limits'
import { BrandSection, ContentSection } from './settings-content'
import { GeneralSection } from './settings-general'
import { EmailDomainSection, LoginSection, ServerAddressSection } from './settings-login'
import { OperationOtherSection } from './settings-operation-other'
import { ContentSafetySection } from './settings-content-safety'
import { GitHubSection, LarkSection, OidcSection, SmtpSection, TurnstileSection, WeChatSection } from './settings-providers'
import { MonitoringSection, QuotaSection } from './settings-quota'
import { RoutingSection } from './settings-routing'
import { MetricsSection } from './settings-metrics'
import { TracesSection } from './settings-traces'
import { SettingsTabLayout } from './settings-tab-layout'
import { TelegramSection } from './settings-telegram'
import { ImportSection } from '@/features/import/components/import-section'

export const SETTINGS_TABS = ['operation', 'system', 'other'] as const
export type SettingsTab = (typeof SETTINGS_TABS)[number]

type Section = { id: string; titleKey: string; render: (options: OptionMap) => ReactNode }

const SECTIONS: Record<SettingsTab, Section[]> = {
  operation: [
    { id: 'general', titleKey: 'general', render: (o) => <GeneralSection options={o} /> },
    { id: 'chat-links', titleKey: 'chatLinks', render: (o) => <ChatLinksSection options={o} /> },
    { id: 'quota', titleKey: 'quota', render: (o) => <QuotaSection options={o} /> },
    { id: 'monitoring', titleKey: 'monitoring', render: (o) => <MonitoringSection options={o} /> },
    { id: 'routing', titleKey: 'routing', render: (o) => <RoutingSection options={o} /> },
    { id: 'log', titleKey: 'log', render: (o) => <LogSection options={o} /> },
    { id: 'payment', titleKey: 'payment', render: (o) => <PaymentSection options={o} /> },
    { id: 'rate', titleKey: 'rate', render: (o) => <RateSection options={o} /> },
    { id: 'limits', titleKey: 'limits', render: (o) => <LimitsSection options={o} /> },
    { id: 'content-safety', titleKey: 'contentSafety', render: (o) => <ContentSafetySection options={o} /> },
    { id: 'operation-other', titleKey: 'operationOther', render: (o) => <OperationOtherSection options={o} /> },
  ],
  system: [
    { id: 'server', titleKey: 'server', render: (o) => <ServerAddressSection options={o} /> },
    { id: 'login', titleKey: 'login', render: (o) => <LoginSection options={o} /> },
    { id: 'email-domains', titleKey: 'emailDomains', render: (o) => <EmailDomainSection options={o} /> },
    { id: 'smtp', titleKey: 'smtp', render: (o) => <SmtpSection options={o} /> },
    { id: 'github', titleKey: 'github', render: (o) => <GitHubSection options={o} /> },
    { id: 'wechat', titleKey: 'wechat', render: (o) => <WeChatSection options={o} /> },
    { id: 'lark', titleKey: 'lark', render: (o) => <LarkSection options={o} /> },
    { id: 'oidc', titleKey: 'oidc', render: (o) => <OidcSection options={o} /> },
    { id: 'turnstile', titleKey: 'turnstile', render: (o) => <TurnstileSection options={o} /> },
    { id: 'telegram', titleKey: 'telegram', render: (o) => <TelegramSection options={o} /> },
    { id: 'metrics', titleKey: 'metrics', render: (o) => <MetricsSection options={o} /> },
    { id: 'traces', titleKey: 'traces', render: (o) => <TracesSection options={o} /> },
  ],
  other: [
    { id: 'notice', titleKey: 'notice', render: (o) => <ContentSection options={o} field="Notice" /> },
    { id: 'brand', titleKey: 'brand', render: (o) => <BrandSection options={o} /> },
    { id: 'home', titleKey: 'home', render: (o) => <ContentSection options={o} field="HomePageContent" /> },
    { id: 'about', titleKey: 'about', render: (o) => <ContentSection options={o} field="About" /> },
    { id: 'footer', titleKey: 'footer', render: (o) => <ContentSection options={o} field="Footer" /> },
    { id: 'import', titleKey: 'import', render: () => <ImportSection /> },
  ],
}

/** Number of cards per tab (for the loading skeleton). */
export const sectionCount = (tab: SettingsTab) => SECTIONS[tab].length

export function SettingsTabBody({ tab, options }: { tab: SettingsTab; options: OptionMap }) {
  const { t } = useTranslation('settings')
  const sections = SECTIONS[tab]
  return (
    <SettingsTabLayout sections={sections.map((s) => ({ id: s.id, title: t(`sections.${s.titleKey}.title`) }))}>
      {sections.map((s) => (
        <Fragment key={s.id}>{s.render(options)}</Fragment>
      ))}
    </SettingsTabLayout>
  )
}

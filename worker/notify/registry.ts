/** Every notification channel type by name (one module each in sinks/). */
import type { NotifySink } from './types'
import { webhookSink } from './sinks/webhook'
import { slackSink } from './sinks/slack'
import { feishuSink, larkSink } from './sinks/feishu'
import { dingtalkSink } from './sinks/dingtalk'
import { wecomSink } from './sinks/wecom'
import { telegramSink } from './sinks/telegram'
import { emailSink } from './sinks/email'

export const SINKS: Record<string, NotifySink> = Object.fromEntries(
  [webhookSink, slackSink, feishuSink, larkSink, dingtalkSink, wecomSink, telegramSink, emailSink].map((s) => [s.type, s])
)

export const sinkOf = (type: string): NotifySink | undefined => SINKS[type]

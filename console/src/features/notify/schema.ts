/**
 * Form schema of an alert channel: name, type, the webhook URL (types that post to one), the
 * write-only secret (empty when editing keeps the stored one), the type's config field (Telegram
 * chat id, email address), the events it receives, and enabled.
 */
import { z } from 'zod'
import { NOTIFY_CHANNEL_TYPES, NOTIFY_EVENT_LIST, type NotifyChannelBody, type NotifyChannelType, type NotifyChannelView, type NotifyEventName } from '@contract/notify'

/** Types that post to an incoming-webhook URL; the others say where in `config`. */
export const URL_TYPES: NotifyChannelType[] = ['webhook', 'slack', 'feishu', 'lark', 'dingtalk', 'wecom']
/** Types that use a secret (webhook signature, Feishu/Lark and DingTalk signs). */
export const SECRET_TYPES: NotifyChannelType[] = ['webhook', 'feishu', 'lark', 'dingtalk']
/** The config field each non-URL type needs. */
export const CONFIG_FIELD: Partial<Record<NotifyChannelType, 'chat_id' | 'address'>> = { telegram: 'chat_id', email: 'address' }

export const channelFormSchema = z
  .object({
    name: z.string().trim().min(1, 'notify:validation.name').max(64, 'notify:validation.name'),
    type: z.enum(NOTIFY_CHANNEL_TYPES),
    url: z.string().trim(),
    secret: z.string(),
    target: z.string().trim(),
    events: z.array(z.enum(NOTIFY_EVENT_LIST)),
    enabled: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (URL_TYPES.includes(v.type) && !z.string().url().safeParse(v.url).success) ctx.addIssue({ code: 'custom', path: ['url'], message: 'notify:validation.url' })
    const field = CONFIG_FIELD[v.type]
    if (field === 'address' && !z.string().email().safeParse(v.target).success) ctx.addIssue({ code: 'custom', path: ['target'], message: 'notify:validation.address' })
    if (field === 'chat_id' && !v.target) ctx.addIssue({ code: 'custom', path: ['target'], message: 'notify:validation.chatId' })
  })

export type ChannelFormValues = z.infer<typeof channelFormSchema>

export const formDefaults = (row?: NotifyChannelView): ChannelFormValues => ({
  name: row?.name ?? '',
  type: row?.type ?? 'webhook',
  url: row?.url ?? '',
  secret: '',
  target: row?.config.chat_id ?? row?.config.address ?? '',
  // An event this console no longer offers is dropped from the form (the server would refuse it).
  events: (row?.events ?? []).filter((e): e is NotifyEventName => (NOTIFY_EVENT_LIST as readonly string[]).includes(e)),
  enabled: row?.enabled ?? true,
})

/** The request body: the secret only when typed (editing without it keeps the stored one). */
export function toBody(v: ChannelFormValues): NotifyChannelBody {
  const field = CONFIG_FIELD[v.type]
  return {
    name: v.name,
    type: v.type,
    url: URL_TYPES.includes(v.type) ? v.url : '',
    ...(v.secret && SECRET_TYPES.includes(v.type) ? { secret: v.secret } : {}),
    config: field ? { [field]: v.target } : {},
    events: v.events,
    enabled: v.enabled,
  }
}

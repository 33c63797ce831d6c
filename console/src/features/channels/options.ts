/**
 * Enum metadata of the channels page: the four channel statuses (label keys and badge colours),
 * which models a speed test accepts (chat models only, as the server decides), and helpers that
 * turn the comma-separated `group` / `models` columns into lists.
 */
export const CHANNEL_STATUSES = [
  { value: 1, label: 'status.enabled', className: 'border-transparent bg-success/15 text-success' },
  { value: 2, label: 'status.manual', className: 'border-transparent bg-muted text-muted-foreground' },
  { value: 3, label: 'status.auto', className: 'border-transparent bg-destructive/15 text-destructive' },
  { value: 4, label: 'status.test', className: 'border-transparent bg-warning/20 text-amber-700 dark:text-amber-300' },
] as const

export const statusMeta = (status: number) => CHANNEL_STATUSES.find((s) => s.value === status) ?? CHANNEL_STATUSES[1]

/** The server's rule for speed tests: these model families are not chat models. */
const NOT_CHAT = /(embedding|embed|tts|whisper|dall-e|image|rerank|moderation|^mj_|^chirp|audio)/i

export const isChatModel = (model: string) => !NOT_CHAT.test(model) && !model.endsWith('*')

export const splitList = (value: string | null | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** The Azure OpenAI type, whose `other` field is the API version. */
export const AZURE_TYPE = 3

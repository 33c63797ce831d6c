/**
 * The message box: a growing textarea (Enter sends, Shift+Enter breaks the line, IME composition
 * respected) with a send button that turns into a stop button while an answer streams.
 */
import { useRef, type KeyboardEvent } from 'react'
import { ArrowUp, Square } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/textarea'

export function ChatComposer({
  value,
  onChange,
  onSend,
  onStop,
  streaming,
  disabled,
  hint,
}: {
  value: string
  onChange: (value: string) => void
  onSend: () => void
  onStop: () => void
  streaming: boolean
  /** Sending is not possible (no key or model yet, invalid settings). */
  disabled: boolean
  hint?: string
}) {
  const { t } = useTranslation('playground')
  const box = useRef<HTMLTextAreaElement>(null)
  const canSend = !disabled && !streaming && value.trim() !== ''

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return
    e.preventDefault()
    if (canSend) onSend()
  }

  return (
    <div className="border-t bg-card p-3 sm:p-4">
      <form
        className="mx-auto flex max-w-3xl items-end gap-2 rounded-xl border bg-background p-2 shadow-xs focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/30 dark:bg-input/30"
        onSubmit={(e) => {
          e.preventDefault()
          if (canSend) onSend()
          box.current?.focus()
        }}
      >
        <Textarea
          ref={box}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('composer.placeholder')}
          aria-label={t('composer.label')}
          rows={1}
          className="max-h-48 min-h-9 resize-none border-0 bg-transparent px-2 py-1.5 shadow-none focus-visible:ring-0 dark:bg-transparent"
          data-testid="chat-input"
        />
        {streaming ? (
          <Button type="button" size="icon" variant="secondary" onClick={onStop} aria-label={t('composer.stop')} data-testid="chat-stop">
            <Square className="size-3.5 fill-current" />
          </Button>
        ) : (
          <Button type="submit" size="icon" disabled={!canSend} aria-label={t('composer.send')} data-testid="chat-send">
            <ArrowUp />
          </Button>
        )}
      </form>
      <p className="mx-auto mt-2 max-w-3xl truncate text-center text-xs text-muted-foreground">{hint ?? t('composer.hint')}</p>
    </div>
  )
}

/**
 * The conversation view: user turns as bubbles, assistant answers as Markdown with a typing
 * indicator, a caret while streaming, and a footer (model, tokens, time, stopped / failed, copy).
 * Follows the answer to the bottom unless the reader has scrolled up. Empty: a welcome with
 * example prompts.
 */
import { useEffect, useLayoutEffect, useRef } from 'react'
import { Bot, Copy, MessageSquareText, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { copyText } from '@/lib/clipboard'
import { cn } from '@/lib/utils'
import type { ChatMessage } from '../use-chat'
import { ChatMarkdown } from './chat-markdown'

const EXAMPLES = ['examples.explain', 'examples.code', 'examples.translate'] as const

export function ChatMessages({ messages, onExample }: { messages: ChatMessage[]; onExample: (text: string) => void }) {
  const { t } = useTranslation('playground')
  const scroller = useRef<HTMLDivElement>(null)
  const pinned = useRef(true)

  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const onScroll = () => {
      pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => el.removeEventListener('scroll', onScroll)
  }, [])

  const last = messages[messages.length - 1]
  useLayoutEffect(() => {
    const el = scroller.current
    if (el && pinned.current) el.scrollTop = el.scrollHeight
  }, [messages.length, last?.content])

  if (!messages.length) {
    return (
      <div className="flex min-h-0 flex-1 flex-col items-center justify-center gap-4 overflow-y-auto p-6 text-center" data-testid="chat-empty">
        <div className="flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
          <MessageSquareText className="size-6" />
        </div>
        <div>
          <p className="font-semibold">{t('empty.title')}</p>
          <p className="mt-1 max-w-md text-sm text-muted-foreground">{t('empty.description')}</p>
        </div>
        <div className="flex max-w-xl flex-wrap justify-center gap-2">
          {EXAMPLES.map((key) => (
            <button
              key={key}
              type="button"
              onClick={() => onExample(t(key))}
              className="rounded-full border bg-background px-3 py-1.5 text-xs text-muted-foreground transition-colors hover:border-primary/40 hover:text-foreground dark:bg-input/30"
            >
              {t(key)}
            </button>
          ))}
        </div>
      </div>
    )
  }

  return (
    <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto px-3 py-4 sm:px-5" data-testid="chat-messages" aria-live="polite">
      <div className="mx-auto grid max-w-3xl gap-5">
        {messages.map((m) => (m.role === 'user' ? <UserTurn key={m.id} message={m} /> : <AssistantTurn key={m.id} message={m} />))}
      </div>
    </div>
  )
}

function UserTurn({ message }: { message: ChatMessage }) {
  return (
    <div className="flex justify-end" data-testid="chat-message" data-role="user">
      <div className="max-w-[85%] rounded-2xl rounded-br-md bg-primary px-4 py-2.5 text-sm whitespace-pre-wrap text-primary-foreground shadow-xs [overflow-wrap:anywhere]">
        {message.content}
      </div>
    </div>
  )
}

function AssistantTurn({ message }: { message: ChatMessage }) {
  const { t } = useTranslation('playground')
  const streaming = message.status === 'streaming'
  const seconds = message.duration ? (message.duration / 1000).toFixed(1) : null
  return (
    <div className="flex gap-3" data-testid="chat-message" data-role="assistant" data-status={message.status}>
      <div className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full border bg-background text-muted-foreground dark:bg-input/30">
        <Bot className="size-4" />
      </div>
      <div className="min-w-0 flex-1">
        {message.content ? (
          <div
            className={cn(
              streaming && '[&_.markdown-body>*:last-child]:after:ml-0.5 [&_.markdown-body>*:last-child]:after:animate-pulse [&_.markdown-body>*:last-child]:after:content-["▍"]'
            )}
          >
            <ChatMarkdown content={message.content} />
          </div>
        ) : streaming ? (
          <TypingDots label={t('message.thinking')} />
        ) : null}
        {message.status === 'error' && (
          <p className="mt-1 flex items-start gap-1.5 text-sm text-destructive" data-testid="chat-error">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" />
            <span className="[overflow-wrap:anywhere]">{t('message.failed', { message: message.error ?? '' })}</span>
          </p>
        )}
        {!streaming && (
          <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            {message.model && <span className="font-mono">{message.model}</span>}
            {message.usage && <span>{t('message.tokens', { prompt: message.usage.prompt_tokens, completion: message.usage.completion_tokens })}</span>}
            {seconds && <span>{t('message.seconds', { seconds })}</span>}
            {message.status === 'stopped' && <span className="rounded bg-warning/15 px-1.5 py-0.5 text-warning">{t('message.stopped')}</span>}
            {message.content && (
              <Tooltip>
                <TooltipTrigger asChild>
                  <Button variant="ghost" size="icon" className="size-6" onClick={() => void copyText(message.content)} aria-label={t('message.copy')}>
                    <Copy className="size-3.5" />
                  </Button>
                </TooltipTrigger>
                <TooltipContent>{t('message.copy')}</TooltipContent>
              </Tooltip>
            )}
          </div>
        )}
      </div>
    </div>
  )
}

function TypingDots({ label }: { label: string }) {
  return (
    <div className="flex h-6 items-center gap-1" role="status" aria-label={label}>
      {[0, 150, 300].map((delay) => (
        <span key={delay} className="size-1.5 animate-bounce rounded-full bg-muted-foreground/70" style={{ animationDelay: `${delay}ms` }} />
      ))}
    </div>
  )
}

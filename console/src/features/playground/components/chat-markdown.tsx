/**
 * Markdown of an assistant answer. `marked` splits the text into blocks; code blocks become React
 * components (language label, copy button, horizontal scroll), every other run of blocks is
 * rendered to HTML and sanitized by DOMPurify (lib/sanitize) — model output is untrusted. Runs
 * on every streamed piece, so an unclosed code fence shows as a growing code block.
 */
import { memo, useMemo, useState } from 'react'
import { marked, type Token } from 'marked'
import { Check, Copy } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { copyText } from '@/lib/clipboard'
import { sanitizeHtml } from '@/lib/sanitize'
import { cn } from '@/lib/utils'

type Block = { kind: 'html'; html: string } | { kind: 'code'; lang: string; code: string }

const OPTIONS = { gfm: true, breaks: true } as const

function toBlocks(source: string): Block[] {
  const blocks: Block[] = []
  let run: Token[] = []
  const flush = () => {
    if (!run.length) return
    blocks.push({ kind: 'html', html: sanitizeHtml(marked.parser(run, OPTIONS)) })
    run = []
  }
  for (const token of marked.lexer(source, OPTIONS)) {
    if (token.type === 'code') {
      flush()
      blocks.push({ kind: 'code', lang: (token.lang ?? '').split(/\s/)[0] ?? '', code: token.text })
    } else run.push(token)
  }
  flush()
  return blocks
}

export const ChatMarkdown = memo(function ChatMarkdown({ content, className }: { content: string; className?: string }) {
  const blocks = useMemo(() => toBlocks(content), [content])
  return (
    <div className={cn('markdown-body min-w-0 text-sm leading-6 [&_table]:block [&_table]:overflow-x-auto', className)}>
      {blocks.map((b, i) => (b.kind === 'code' ? <CodeBlock key={i} lang={b.lang} code={b.code} /> : <div key={i} dangerouslySetInnerHTML={{ __html: b.html }} />))}
    </div>
  )
})

function CodeBlock({ lang, code }: { lang: string; code: string }) {
  const { t } = useTranslation('playground')
  const [copied, setCopied] = useState(false)
  return (
    <div className="my-3 overflow-hidden rounded-lg border bg-muted/50" data-testid="code-block">
      <div className="flex h-9 items-center justify-between border-b bg-muted/70 pr-1 pl-3 text-xs text-muted-foreground">
        <span className="font-mono">{lang || t('code.plain')}</span>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 gap-1 px-2 text-xs"
          onClick={async () => {
            if (await copyText(code)) {
              setCopied(true)
              window.setTimeout(() => setCopied(false), 1500)
            }
          }}
          data-testid="code-copy"
        >
          {copied ? <Check className="size-3.5" /> : <Copy className="size-3.5" />}
          {copied ? t('code.copied') : t('code.copy')}
        </Button>
      </div>
      <pre className="my-0! overflow-x-auto rounded-none! bg-transparent! p-3! text-[13px] leading-5">
        <code className="bg-transparent! p-0! font-mono">{code}</code>
      </pre>
    </div>
  )
}

/** Markdown (or HTML) from site settings, rendered and sanitized (lib/markdown). */
import { useMemo } from 'react'
import { renderMarkdown } from '@/lib/markdown'
import { cn } from '@/lib/utils'

export function MarkdownContent({ content, className }: { content: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(content), [content])
  return <div className={cn('markdown-body', className)} dangerouslySetInnerHTML={{ __html: html }} />
}

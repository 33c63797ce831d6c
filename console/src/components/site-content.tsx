/**
 * Admin-configured page content (home, about): empty → the page's default section; a
 * bare http(s) link → a full-size iframe; anything else → Markdown/HTML rendered and sanitized.
 */
import type { ReactNode } from 'react'
import { useQuery, type UseQueryOptions } from '@tanstack/react-query'
import { TriangleAlert } from 'lucide-react'
import { Alert, AlertTitle } from '@/components/ui/alert'
import { Skeleton } from '@/components/ui/skeleton'
import { isEmbedUrl } from '@/lib/markdown'
import { MarkdownContent } from './markdown-content'

interface SiteContentProps {
  query: UseQueryOptions<string, Error, string, string[]>
  errorMessage: string
  empty: ReactNode
  title: string
}

export function SiteContent({ query, errorMessage, empty, title }: SiteContentProps) {
  const { data, isPending, isError } = useQuery(query)
  if (isPending) {
    return (
      <div className="mx-auto grid w-full max-w-4xl gap-4 px-4 py-12">
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-5/6" />
        <Skeleton className="h-4 w-4/6" />
      </div>
    )
  }
  if (isError) {
    return (
      <div className="mx-auto w-full max-w-4xl px-4 py-12">
        <Alert variant="destructive">
          <TriangleAlert />
          <AlertTitle>{errorMessage}</AlertTitle>
        </Alert>
      </div>
    )
  }
  const content = data.trim()
  if (!content) return <>{empty}</>
  if (isEmbedUrl(content)) {
    return <iframe src={content} title={title} className="w-full flex-1 border-0" style={{ minHeight: 'calc(100svh - 8rem)' }} />
  }
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10 md:py-14">
      <MarkdownContent content={content} />
    </div>
  )
}

/**
 * Admin-provided content (home, about, notice): Markdown rendered by `marked`, HTML passed through,
 * and everything sanitized by DOMPurify (lib/sanitize) before it reaches the DOM.
 */
import { marked } from 'marked'
import { sanitizeHtml } from './sanitize'

export function renderMarkdown(source: string): string {
  return sanitizeHtml(marked.parse(source, { async: false, gfm: true, breaks: true }))
}

/** Content that is a bare link is shown in a full-size iframe instead of being rendered. */
export const isEmbedUrl = (content: string) => /^https?:\/\//i.test(content.trim())

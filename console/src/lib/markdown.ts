/**
 * Admin-provided content (home, about, notice, footer): Markdown rendered by `marked`, HTML passed
 * through, and everything sanitized by DOMPurify before it reaches the DOM.
 */
import DOMPurify from 'dompurify'
import { marked } from 'marked'

export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] })
}

export function renderMarkdown(source: string): string {
  return sanitizeHtml(marked.parse(source, { async: false, gfm: true, breaks: true }))
}

/** Content that is a bare link is shown in a full-size iframe instead of being rendered. */
export const isEmbedUrl = (content: string) => /^https?:\/\//i.test(content.trim())

/**
 * DOMPurify for admin-provided HTML (footer, rendered Markdown). Kept apart from lib/markdown so
 * pages that only show HTML (the footer on every public page) do not load the Markdown parser.
 */
import DOMPurify from 'dompurify'

export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] })
}

/** The 64 px footer: the admin's footer HTML (sanitized), or the default line when it is empty. */
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useSiteInfo } from '@/features/site/api'
import { sanitizeHtml } from '@/lib/sanitize'

export function SiteFooter() {
  const { t } = useTranslation()
  const { footer_html, system_name, version } = useSiteInfo()
  const html = useMemo(() => (footer_html ? sanitizeHtml(footer_html) : ''), [footer_html])
  return (
    <footer className="flex h-16 shrink-0 items-center justify-center border-t px-4 text-center text-sm text-muted-foreground">
      {html ? (
        <div className="line-clamp-2 [&_a]:text-primary [&_a]:underline-offset-4 hover:[&_a]:underline" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p>
          {t('footer.default', { name: system_name, year: new Date().getFullYear() })}
          {version && <span className="ml-1 opacity-70">v{version}</span>}
        </p>
      )}
    </footer>
  )
}

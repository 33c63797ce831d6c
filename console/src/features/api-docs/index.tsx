/**
 * /panel/api-docs (admin): the reference of the management API, rendered from GET /api/openapi.json —
 * endpoints grouped by tag, filtered by a search over method, path and tag; each expands into its
 * parameters and request body. The raw document opens from the header for tools (Postman, codegen).
 */
import { useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { FileJson, Search } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { OPENAPI_URL, endpointsByTag, openApiQueryOptions } from './api'
import { EndpointItem } from './components/endpoint-item'
import { apiUrl } from '@/lib/api-origin'

export function ApiDocs() {
  const { t } = useTranslation('api-docs')
  const { data: doc, error, isPending } = useQuery(openApiQueryOptions)
  const [search, setSearch] = useState('')
  const groups = useMemo(() => (doc ? endpointsByTag(doc) : []), [doc])
  const filtered = useMemo(() => {
    const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean)
    if (!words.length) return groups
    return groups
      .map((g) => ({ ...g, endpoints: g.endpoints.filter((e) => words.every((w) => `${e.method} ${e.path} ${g.tag}`.toLowerCase().includes(w))) }))
      .filter((g) => g.endpoints.length > 0)
  }, [groups, search])
  const total = groups.reduce((n, g) => n + g.endpoints.length, 0)

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button variant="outline" asChild>
            <a href={apiUrl(OPENAPI_URL)} target="_blank" rel="noopener">
              <FileJson />
              {t('openJson')}
            </a>
          </Button>
        }
      />
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{t('loadFailed', { message: error.message })}</AlertDescription>
        </Alert>
      ) : isPending ? (
        <div className="grid gap-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-32 w-full" />
          ))}
        </div>
      ) : (
        <div className="grid gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <div className="relative w-full sm:max-w-sm">
              <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('searchPlaceholder')} aria-label={t('searchPlaceholder')} className="pl-8" />
            </div>
            <p className="text-sm text-muted-foreground">{t('summary', { version: doc.info.version, openapi: doc.openapi, count: total })}</p>
          </div>
          {filtered.length === 0 && <p className="py-8 text-center text-muted-foreground">{t('emptySearch')}</p>}
          {filtered.map((group) => (
            <section key={group.tag} data-testid="api-tag" data-tag={group.tag} className="grid gap-2">
              <h2 className="flex items-baseline gap-2 text-lg font-semibold">
                <span className="font-mono">{group.tag}</span>
                <span className="text-sm font-normal text-muted-foreground">{t('endpointCount', { count: group.endpoints.length })}</span>
              </h2>
              <Card className="gap-0 overflow-hidden py-0">
                {group.endpoints.map((endpoint) => (
                  <EndpointItem key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} />
                ))}
              </Card>
            </section>
          ))}
        </div>
      )}
    </>
  )
}

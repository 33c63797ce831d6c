/**
 * /panel/audit (administrators; Settings → Audit in the menu): who changed what in the management
 * API, with the field diff. Root sees every row; an administrator their own and lower ranks' rows.
 */
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import type { AuditSearch } from './api'
import { AuditTable } from './components/audit-table'

const route = getRouteApi('/panel/audit')

export function Audit() {
  const { t } = useTranslation('audit')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const setSearch = (patch: Partial<AuditSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <AuditTable search={search} setSearch={setSearch} />
    </>
  )
}

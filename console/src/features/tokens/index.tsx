/**
 * /panel/token: the signed-in user's API keys with create, edit,
 * enable/disable, delete, copy and chat links; admins can switch to the search across every
 * user's keys. The URL search params hold the page, sort, search and mode.
 */
import { useCallback } from 'react'
import { getRouteApi } from '@tanstack/react-router'
import { Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { isAdmin, useAuthUser } from '@/stores/auth-store'
import { TokensDialogs } from './components/tokens-dialogs'
import { TokensProvider, useTokensDialog } from './components/tokens-provider'
import { TokensTable } from './components/tokens-table'
import type { TokensSearch } from './schema'

const route = getRouteApi('/panel/token')

function CreateButton() {
  const { t } = useTranslation('tokens')
  const { open } = useTokensDialog()
  return (
    <Button onClick={() => open({ kind: 'create' })} data-testid="token-create">
      <Plus />
      {t('actions.create')}
    </Button>
  )
}

export function Tokens() {
  const { t } = useTranslation('tokens')
  const user = useAuthUser()
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const setSearch = useCallback((patch: Partial<TokensSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }), [navigate])
  const admin = isAdmin(user)
  const allUsers = admin && search.scope === 'all'
  return (
    <TokensProvider admin={allUsers}>
      <PageHeader title={t('title')} description={allUsers ? t('descriptionAll') : t('description')} actions={<CreateButton />} />
      {admin && (
        <Tabs value={allUsers ? 'all' : 'mine'} onValueChange={(v) => navigate({ search: v === 'all' ? { scope: 'all' } : {}, replace: true })}>
          <TabsList>
            <TabsTrigger value="mine" className="px-4">
              {t('scope.mine')}
            </TabsTrigger>
            <TabsTrigger value="all" className="px-4" data-testid="token-scope-all">
              {t('scope.all')}
            </TabsTrigger>
          </TabsList>
        </Tabs>
      )}
      <TokensTable key={allUsers ? 'all' : 'mine'} search={search} setSearch={setSearch} />
      <TokensDialogs />
    </TokensProvider>
  )
}

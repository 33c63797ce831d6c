/**
 * /panel/user (admin): list and search users, create and edit them,
 * change their quota, enable/disable, promote/demote (root) and delete them.
 */
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { UsersDialogs } from './components/users-dialogs'
import { UsersPrimaryButtons } from './components/users-primary-buttons'
import { UsersProvider } from './components/users-provider'
import { UsersTable } from './components/users-table'

export function Users() {
  const { t } = useTranslation('users')
  return (
    <UsersProvider>
      <PageHeader title={t('title')} description={t('description')} actions={<UsersPrimaryButtons />} />
      <UsersTable />
      <UsersDialogs />
    </UsersProvider>
  )
}

/** Header button of the users page: add a user. */
import { UserPlus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useUsersDialog } from './users-provider'

export function UsersPrimaryButtons() {
  const { t } = useTranslation('users')
  const { open } = useUsersDialog()
  return (
    <Button onClick={() => open({ kind: 'create' })} data-testid="user-create">
      <UserPlus />
      {t('actions.add')}
    </Button>
  )
}

/** Role and status badges of a user (roles: user, admin, root, unknown identity). */
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { cn } from '@/lib/utils'
import { USER_STATUS } from '@contract/enums'
import { roleKey } from '../options'

const ROLE_CLASS = {
  user: '',
  admin: 'border-transparent bg-primary/12 text-primary',
  root: 'border-transparent bg-warning/20 text-amber-700 dark:text-warning',
  unknown: 'border-dashed text-muted-foreground',
}

export function RoleBadge({ role }: { role: number }) {
  const { t } = useTranslation('users')
  const key = roleKey(role)
  return (
    <Badge variant="outline" className={cn(ROLE_CLASS[key])} data-testid="role-badge">
      {t(`role.${key}`)}
    </Badge>
  )
}

export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation('users')
  if (status === USER_STATUS.ENABLED)
    return (
      <Badge variant="success" data-testid="status-badge">
        {t('status.enabled')}
      </Badge>
    )
  if (status === USER_STATUS.DISABLED)
    return (
      <Badge variant="destructive" className="border-transparent bg-destructive/12 text-destructive" data-testid="status-badge">
        {t('status.disabled')}
      </Badge>
    )
  return (
    <Badge variant="outline" data-testid="status-badge">
      {t('status.unknown', { status })}
    </Badge>
  )
}

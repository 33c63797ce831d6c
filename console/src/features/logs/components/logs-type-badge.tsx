/** The log type badge: 1 top-up, 2 consume, 3 manage, 4 system, 5 error. */
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'

const CLASS: Record<number, string> = {
  1: 'border-transparent bg-success/15 text-success',
  2: 'border-transparent bg-primary/12 text-primary',
  3: 'border-transparent bg-warning/20 text-amber-700 dark:text-warning',
  4: 'border-transparent bg-secondary text-secondary-foreground',
  5: 'border-transparent bg-destructive/12 text-destructive',
}

export function LogTypeBadge({ type }: { type: number }) {
  const { t } = useTranslation('logs')
  return (
    <Badge variant="outline" className={CLASS[type]} data-testid="log-type">
      {CLASS[type] ? t(`type.${type}`) : t('type.unknown', { type })}
    </Badge>
  )
}

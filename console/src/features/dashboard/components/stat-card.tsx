/**
 * Figure cards of the dashboard and analytics pages (an icon, a label, a big value and a
 * caption), the chart card frame (title, description, optional action, empty state) and their
 * loading skeletons.
 */
import type { ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/utils'

export function StatCard({
  icon: Icon,
  label,
  value,
  caption,
  testId,
  tone = 'primary',
}: {
  icon: LucideIcon
  label: string
  value: ReactNode
  caption?: ReactNode
  testId?: string
  tone?: 'primary' | 'success' | 'warning' | 'destructive' | 'muted'
}) {
  const toneClass = {
    primary: 'bg-primary/10 text-primary',
    success: 'bg-success/15 text-success',
    warning: 'bg-warning/15 text-warning',
    destructive: 'bg-destructive/10 text-destructive',
    muted: 'bg-muted text-muted-foreground',
  }[tone]
  return (
    <Card className="gap-0 py-4" data-testid={testId}>
      <CardContent className="flex items-start gap-3 px-4">
        <div className={cn('hidden size-9 shrink-0 items-center justify-center rounded-lg sm:flex', toneClass)}>
          <Icon className="size-[18px]" />
        </div>
        <div className="min-w-0">
          <p className="text-xs leading-tight font-medium text-muted-foreground">{label}</p>
          <p className="mt-1 text-lg font-semibold tracking-tight break-all tabular-nums sm:text-xl" data-testid={testId && `${testId}-value`}>
            {value}
          </p>
          {caption && <p className="mt-0.5 text-xs leading-tight text-muted-foreground">{caption}</p>}
        </div>
      </CardContent>
    </Card>
  )
}

export function StatCardSkeleton() {
  return (
    <Card className="gap-0 py-4">
      <CardContent className="flex items-start gap-3 px-4">
        <Skeleton className="hidden size-9 rounded-lg sm:block" />
        <div className="grid flex-1 gap-2">
          <Skeleton className="h-3 w-20" />
          <Skeleton className="h-6 w-24" />
        </div>
      </CardContent>
    </Card>
  )
}

export function ChartCard({
  title,
  description,
  action,
  children,
  className,
  loading,
  empty,
  testId,
  bodyHeight = 'h-64',
}: {
  title: string
  description?: string
  action?: ReactNode
  children: ReactNode
  className?: string
  loading?: boolean
  /** Message shown instead of the chart when there is nothing to draw. */
  empty?: string | false
  testId?: string
  /** Height of the skeleton and the empty state (match the chart's). */
  bodyHeight?: string
}) {
  return (
    <Card className={cn('min-w-0 gap-4', className)} data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
        {action && <CardAction>{action}</CardAction>}
      </CardHeader>
      <CardContent className="px-3 sm:px-6">
        {loading ? (
          <Skeleton className={cn('w-full', bodyHeight)} />
        ) : empty ? (
          <div className={cn('flex items-center justify-center rounded-lg border border-dashed text-sm text-muted-foreground', bodyHeight)}>{empty}</div>
        ) : (
          children
        )}
      </CardContent>
    </Card>
  )
}

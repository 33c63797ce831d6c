/**
 * The administrators' plans card on the dashboard: plan orders paid in the period (count and
 * revenue per currency), subscriptions active now, and a row per plan. Only rendered when the
 * dashboard answer carries `plans` (administrators).
 */
import { useMemo } from 'react'
import { BadgeCheck, ShoppingCart, Wallet } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { DashboardPlans } from '@contract/dashboard'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { joinMoney, planFigureRows } from '../plan-figures'
import type { DayRange } from '../range'
import { StatCard } from './stat-card'

export function PlanFiguresCard({ plans, range }: { plans: DashboardPlans; range: DayRange }) {
  const { t } = useTranslation('dashboard')
  const rows = useMemo(() => planFigureRows(plans), [plans])
  const sold = plans.sales_totals.reduce((s, r) => s + r.orders, 0)
  return (
    <Card className="min-w-0 gap-4" data-testid="plan-figures">
      <CardHeader>
        <CardTitle>{t('plans.title')}</CardTitle>
        <CardDescription>{t('plans.description', { from: range.from, to: range.to })}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 px-3 sm:px-6">
        <div className="grid grid-cols-2 gap-3 md:grid-cols-3 md:gap-4">
          <StatCard icon={ShoppingCart} label={t('plans.sold')} value={sold.toLocaleString()} caption={t('plans.soldHint')} testId="plan-sold" />
          <StatCard icon={Wallet} label={t('plans.revenue')} value={joinMoney(plans.sales_totals) || '—'} caption={t('plans.revenueHint')} testId="plan-revenue" tone="success" />
          <StatCard icon={BadgeCheck} label={t('plans.active')} value={plans.active_total.toLocaleString()} caption={t('plans.activeHint')} testId="plan-active" tone="warning" />
        </div>
        {rows.length === 0 ? (
          <div className="flex h-24 items-center justify-center rounded-lg border border-dashed text-sm text-muted-foreground">{t('plans.empty')}</div>
        ) : (
          <Table data-testid="plan-figures-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('plans.columns.plan')}</TableHead>
                <TableHead className="text-right">{t('plans.columns.sold')}</TableHead>
                <TableHead className="text-right">{t('plans.columns.revenue')}</TableHead>
                <TableHead className="text-right">{t('plans.columns.active')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.plan_id}>
                  <TableCell className="max-w-40 truncate font-medium sm:max-w-64">{r.plan_name || `#${r.plan_id}`}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.orders.toLocaleString()}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.revenue || '—'}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.active.toLocaleString()}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  )
}

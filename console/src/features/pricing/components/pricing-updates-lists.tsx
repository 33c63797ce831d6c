/**
 * The three lists of a price-list comparison: models the list adds, prices it changes (old → new,
 * field by field, with the lock that keeps a row), and models only this gateway has.
 */
import type { ReactNode } from 'react'
import { ArrowRight, Lock } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import type { RemotePrice } from '@contract/pricing'
import type { ExtraRatios, Price } from '../api'
import { ratiosKey, type PriceChange } from '../remote-list'
import { formatRatio } from '../units'
import { ExtraRatioBadges, PriceCell, TypeBadge, useSupplierNames, useUsdLabel } from './price-cells'

function Scroll({ children, empty, testId }: { children: ReactNode; empty: boolean; testId: string }) {
  const { t } = useTranslation('pricing')
  if (empty) return <p className="rounded-md border p-6 text-center text-sm text-muted-foreground">{t('updates.nothing')}</p>
  return (
    <div className="max-h-72 overflow-y-auto rounded-md border" data-testid={testId}>
      {children}
    </div>
  )
}

export function UpdatesAdded({ rows }: { rows: RemotePrice[] }) {
  const { t } = useTranslation('pricing')
  const supplier = useSupplierNames()
  return (
    <Scroll empty={rows.length === 0} testId="updates-added">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t('fields.model')}</TableHead>
            <TableHead>{t('fields.supplier')}</TableHead>
            <TableHead>{t('fields.type')}</TableHead>
            <TableHead>{t('fields.input')}</TableHead>
            <TableHead>{t('fields.output')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((p) => (
            <TableRow key={p.model}>
              <TableCell className="font-mono text-[13px]">{p.model}</TableCell>
              <TableCell>{supplier(p.channel_type)}</TableCell>
              <TableCell>
                <TypeBadge type={p.type} />
              </TableCell>
              <TableCell>
                <PriceCell type={p.type} ratio={p.input} side="input" />
              </TableCell>
              <TableCell>
                <PriceCell type={p.type} ratio={p.output} side="output" />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Scroll>
  )
}

function Change({ label, from, to }: { label: string; from: ReactNode; to: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-sm">
      <span className="min-w-16 text-muted-foreground">{label}</span>
      <span className="text-muted-foreground line-through decoration-muted-foreground/60">{from}</span>
      <ArrowRight className="size-3.5 text-muted-foreground" />
      <span className="font-medium">{to}</span>
    </div>
  )
}

function ChangeLines({ local, remote }: PriceChange) {
  const { t } = useTranslation('pricing')
  const supplier = useSupplierNames()
  const usd = useUsdLabel()
  const money = (p: Pick<Price, 'type'>, ratio: number) => `${formatRatio(ratio)} (${usd(p.type, ratio)})`
  const ratios = (r: ExtraRatios | null | undefined) => <ExtraRatioBadges ratios={r ?? null} />
  return (
    <div className="grid gap-1 whitespace-normal">
      {local.type !== remote.type && <Change label={t('fields.type')} from={t(`types.${local.type}`)} to={t(`types.${remote.type}`)} />}
      {local.channel_type !== remote.channel_type && <Change label={t('fields.supplier')} from={supplier(local.channel_type)} to={supplier(remote.channel_type)} />}
      {local.input !== remote.input && <Change label={t('fields.input')} from={money(local, local.input)} to={money(remote, remote.input)} />}
      {local.output !== remote.output && <Change label={t('fields.output')} from={money(local, local.output)} to={money(remote, remote.output)} />}
      {ratiosKey(local.extra_ratios) !== ratiosKey(remote.extra_ratios) && (
        <Change label={t('fields.extraRatios')} from={ratios(local.extra_ratios)} to={ratios(remote.extra_ratios)} />
      )}
    </div>
  )
}

export function UpdatesChanged({ rows }: { rows: PriceChange[] }) {
  const { t } = useTranslation('pricing')
  return (
    <Scroll empty={rows.length === 0} testId="updates-changed">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t('fields.model')}</TableHead>
            <TableHead>{t('updates.change')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((c) => (
            <TableRow key={c.local.model}>
              <TableCell className="align-top">
                <div className="grid gap-1">
                  <span className="font-mono text-[13px]">{c.local.model}</span>
                  {c.local.locked && (
                    <Badge variant="outline" className="gap-1 font-normal">
                      <Lock className="text-warning" />
                      {t('updates.lockedKept')}
                    </Badge>
                  )}
                </div>
              </TableCell>
              <TableCell>
                <ChangeLines {...c} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Scroll>
  )
}

export function UpdatesLocalOnly({ rows }: { rows: Price[] }) {
  const { t } = useTranslation('pricing')
  const supplier = useSupplierNames()
  return (
    <Scroll empty={rows.length === 0} testId="updates-local">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t('fields.model')}</TableHead>
            <TableHead>{t('fields.supplier')}</TableHead>
            <TableHead>{t('updates.onOverwrite')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((p) => (
            <TableRow key={p.model}>
              <TableCell className="font-mono text-[13px]">{p.model}</TableCell>
              <TableCell>{supplier(p.channel_type)}</TableCell>
              <TableCell>
                {p.locked ? (
                  <Badge variant="outline" className="gap-1 font-normal">
                    <Lock className="text-warning" />
                    {t('updates.lockedKept')}
                  </Badge>
                ) : (
                  <span className="text-destructive">{t('updates.removedByOverwrite')}</span>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Scroll>
  )
}

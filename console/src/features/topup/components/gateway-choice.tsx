/** The payment method choice of an order (top-up or plan): one radio per enabled gateway with its currency and fee. */
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/utils'
import { GatewayIcon } from '@/features/payments/components/gateway-icon'
import type { UserGateway } from '@/features/payments/api'

export function GatewayChoice({ gateways, selected, onSelect }: { gateways: UserGateway[]; selected: string | undefined; onSelect: (uuid: string) => void }) {
  const { t } = useTranslation('topup')
  return (
    <div className="grid gap-2" role="radiogroup" aria-label={t('online.method')}>
      <span className="text-sm font-medium">{t('online.method')}</span>
      <div className="grid gap-2 sm:grid-cols-2">
        {gateways.map((g) => (
          <button
            key={g.uuid}
            type="button"
            role="radio"
            aria-checked={g.uuid === selected}
            onClick={() => onSelect(g.uuid)}
            className={cn(
              'flex items-center gap-3 rounded-lg border p-3 text-left transition-colors hover:bg-accent',
              g.uuid === selected && 'border-primary bg-primary/5 ring-1 ring-primary'
            )}
            data-testid="gateway-choice"
          >
            <GatewayIcon type={g.type} icon={g.icon} className="size-8" />
            <span className="grid leading-tight">
              <span className="font-medium">{g.name}</span>
              <span className="text-xs text-muted-foreground">
                {g.currency}
                {g.percent_fee > 0
                  ? ` · ${t('online.feePercent', { percent: +(g.percent_fee * 100).toFixed(2) })}`
                  : g.fixed_fee > 0
                    ? ` · ${t('online.feeFixed', { fee: `$${g.fixed_fee.toFixed(2)}` })}`
                    : ''}
              </span>
            </span>
          </button>
        ))}
      </div>
    </div>
  )
}

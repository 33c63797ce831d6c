/** A gateway's icon: its configured image, or a mark for its type (Stripe, Alipay, WeChat Pay, Epay). */
import { CreditCard, Wallet } from 'lucide-react'
import { cn } from '@/lib/utils'

const MARKS: Record<string, { className: string; text?: string }> = {
  stripe: { className: 'bg-[#635bff] text-white' },
  alipay: { className: 'bg-[#1677ff] text-white', text: '支' },
  wxpay: { className: 'bg-[#07c160] text-white', text: '微' },
  epay: { className: 'bg-amber-500 text-white' },
}

export function GatewayIcon({ type, icon, className }: { type: string; icon?: string; className?: string }) {
  if (icon) return <img src={icon} alt="" className={cn('size-6 shrink-0 rounded object-contain', className)} />
  const mark = MARKS[type] ?? { className: 'bg-muted text-muted-foreground' }
  return (
    <span className={cn('inline-flex size-6 shrink-0 items-center justify-center rounded text-xs font-bold', mark.className, className)} aria-hidden>
      {mark.text ?? (type === 'stripe' ? <CreditCard className="size-3.5" /> : <Wallet className="size-3.5" />)}
    </span>
  )
}

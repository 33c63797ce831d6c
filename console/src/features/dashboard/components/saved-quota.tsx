/**
 * The quota response-cache hits saved in the chosen range (the rollup's `saved_quota`), as a small
 * badge on the consumption chart: the user's own on the dashboard, the site's on the analytics page.
 */
import { PiggyBank } from 'lucide-react'
import { Badge } from '@/components/ui/badge'

export function SavedQuotaBadge({ label, testId }: { label: string; testId: string }) {
  return (
    <Badge variant="secondary" className="gap-1 font-normal tabular-nums" data-testid={testId}>
      <PiggyBank className="size-3.5 text-success" aria-hidden />
      {label}
    </Badge>
  )
}

/**
 * The "…" menu at the end of a list row: a ghost icon trigger (labelled for screen readers, with the
 * row's test id) opening a right-aligned dropdown, and one item kind with an icon and a label.
 */
import type { LucideIcon } from 'lucide-react'
import { MoreHorizontal } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'

export function RowActionsMenu({ label, testId, className, children }: { label: string; testId: string; className: string; children: ReactNode }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={label} data-testid={testId}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className={className}>
        {children}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

interface RowActionProps {
  icon: LucideIcon
  label: string
  onSelect: () => void
  destructive?: boolean
  disabled?: boolean
}

export function RowAction({ icon: Icon, label, onSelect, destructive, disabled }: RowActionProps) {
  return (
    <DropdownMenuItem variant={destructive ? 'destructive' : 'default'} disabled={disabled} onSelect={onSelect}>
      <Icon />
      {label}
    </DropdownMenuItem>
  )
}

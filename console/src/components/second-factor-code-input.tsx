/**
 * The one input for a second-factor code (a 6-digit TOTP code or a backup code), shared by the
 * sign-in prompt, the profile's two-factor card and the step-up dialog: numeric keyboard, one-time
 * code autofill, spaces dropped, monospace.
 */
import type { ReactNode } from 'react'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { cn } from '@/lib/utils'

interface Props {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  hint?: ReactNode
  autoFocus?: boolean
  className?: string
}

export function SecondFactorCodeInput({ id, label, value, onChange, hint, autoFocus, className }: Props) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value.trim())}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={16}
        placeholder="123456"
        className={cn('font-mono tracking-widest', className)}
        autoFocus={autoFocus}
        data-testid={id}
      />
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  )
}

/**
 * The editor's small pieces: a field's message (keys of the `model-routing` namespace, server
 * messages as sent) and an icon button with its tooltip.
 */
import type { ComponentProps, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useFormField } from '@/components/ui/form'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'

export function FieldError() {
  const { t } = useTranslation('model-routing')
  const { error, formMessageId } = useFormField()
  const raw = error?.message ? String(error.message) : ''
  if (!raw) return null
  return (
    <p data-slot="form-message" id={formMessageId} className="text-xs text-destructive">
      {error?.type === 'server' ? raw : t(raw)}
    </p>
  )
}

/** A list-level message (under a list of routes, targets or fallbacks). */
export function ListError({ message, server }: { message: string | undefined; server?: boolean }) {
  const { t } = useTranslation('model-routing')
  if (!message) return null
  return (
    <p className="text-sm text-destructive" role="alert">
      {server ? message : t(message)}
    </p>
  )
}

export function IconButton({ label, children, ...props }: ComponentProps<typeof Button> & { label: string; children: ReactNode }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button type="button" variant="ghost" size="icon" aria-label={label} {...props}>
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  )
}

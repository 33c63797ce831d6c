/**
 * A write-only secret (SMTP token, OAuth secrets, Turnstile secret, image proxy key): the server
 * never returns it, so the field starts empty with a "configured"/"not set" badge. Leaving it empty
 * keeps the stored value; typing replaces it on save; "Clear" (confirmed) saves '' at once.
 */
import { useState } from 'react'
import type { FieldValues } from 'react-hook-form'
import { Eraser } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { FormControl, FormDescription, FormField, FormItem, FormLabel } from '@/components/ui/form'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { PasswordInput } from '@/components/password-input'
import { cn } from '@/lib/utils'
import { useSaveOptions } from '../api'
import { FieldMessage, type FieldProps } from './settings-fields'

export function SecretField<T extends FieldValues>({ control, name, label, description, className, configured }: FieldProps<T> & { configured: boolean }) {
  const { t } = useTranslation('settings')
  const [confirming, setConfirming] = useState(false)
  const save = useSaveOptions()
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={cn('content-start', className)} data-testid={`secret-${name}`}>
          <div className="flex min-h-5 items-center justify-between gap-2">
            <FormLabel>{label}</FormLabel>
            <Badge variant={configured ? 'success' : 'outline'} data-testid={`secret-${name}-status`}>
              {configured ? t('secret.configured') : t('secret.notSet')}
            </Badge>
          </div>
          <div className="flex gap-2">
            <div className="min-w-0 flex-1">
              <FormControl>
                <PasswordInput
                  {...field}
                  value={field.value ?? ''}
                  autoComplete="new-password"
                  spellCheck={false}
                  placeholder={configured ? t('secret.keepPlaceholder') : t('secret.emptyPlaceholder')}
                />
              </FormControl>
            </div>
            {configured && (
              <Button type="button" variant="outline" onClick={() => setConfirming(true)} data-testid={`secret-${name}-clear`}>
                <Eraser />
                <span className="max-sm:sr-only">{t('secret.clear')}</span>
              </Button>
            )}
          </div>
          {description && <FormDescription className="text-xs">{description}</FormDescription>}
          <FieldMessage />
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={t('secret.clearTitle', { name: typeof label === 'string' ? label : name })}
            description={t('secret.clearDescription')}
            confirmText={t('secret.clear')}
            destructive
            pending={save.isPending}
            onConfirm={() => save.mutate({ [name]: '' }, { onSettled: () => setConfirming(false) })}
          />
        </FormItem>
      )}
    />
  )
}

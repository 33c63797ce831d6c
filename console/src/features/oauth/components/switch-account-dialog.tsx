/**
 * "Switch account?" (issue 12): an external sign-in finished in a browser signed in as another
 * account. Nothing has changed yet; Switch confirms with the pending token (POST /api/oauth/switch),
 * Stay keeps the current account.
 */
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/handle-error'
import type { PendingSwitch } from '@contract/oauth'
import { useConfirmSwitch } from '../api'

interface SwitchAccountDialogProps {
  pending: PendingSwitch | undefined
  /** Stay signed in as the current account. */
  onStay: () => void
}

export function SwitchAccountDialog({ pending, onStay }: SwitchAccountDialogProps) {
  const { t } = useTranslation('oauth')
  const confirm = useConfirmSwitch()
  const provider = pending ? t(`providers.${pending.provider}`) : ''
  const current = pending?.current ?? ''
  return (
    <AlertDialog open={pending !== undefined} onOpenChange={(open) => !open && !confirm.isPending && onStay()}>
      <AlertDialogContent data-testid="switch-account-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>{t('switch.title')}</AlertDialogTitle>
          <AlertDialogDescription className="break-words">
            {pending?.target ? t('switch.description', { current, target: pending.target, provider }) : t('switch.descriptionNew', { current, provider })}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {confirm.isError && (
          <p className="text-sm text-destructive" role="alert">
            {errorMessage(confirm.error)}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={confirm.isPending} data-testid="switch-account-stay">
            {t('switch.stay', { current })}
          </AlertDialogCancel>
          <Button disabled={confirm.isPending || !pending} onClick={() => pending && confirm.mutate(pending.pending_switch)} data-testid="switch-account-confirm">
            {confirm.isPending && <Loader2 className="animate-spin" />}
            {t('switch.confirm')}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

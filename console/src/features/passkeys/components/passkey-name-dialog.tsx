/**
 * Naming a passkey: "Add a passkey" asks for a name first and then opens the browser's WebAuthn
 * prompt; "Rename" changes the name of an existing one (PUT /api/user/passkey/:id).
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Fingerprint, Loader2, Save } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { PASSKEY_NAME_MAX, type PasskeyView } from '@contract/passkeys'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { useAddPasskey, useRenamePasskey } from '../api'

const nameSchema = z.object({ name: z.string().trim().min(1, 'validation.required').max(PASSKEY_NAME_MAX) })
type NameValues = z.infer<typeof nameSchema>

interface PasskeyNameDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The passkey to rename; without it the dialog adds a new one. */
  passkey?: PasskeyView
}

export function PasskeyNameDialog({ open, onOpenChange, passkey }: PasskeyNameDialogProps) {
  const { t } = useTranslation('profile')
  const { t: tc } = useTranslation('table')
  const add = useAddPasskey()
  const rename = useRenamePasskey()
  const pending = add.isPending || rename.isPending
  const form = useForm<NameValues>({ resolver: zodResolver(nameSchema), defaultValues: { name: passkey?.name ?? '' } })

  const onSubmit = ({ name }: NameValues) => {
    const done = {
      onSuccess: () => {
        form.reset({ name: '' })
        onOpenChange(false)
      },
      onError: (err: unknown) => applyFieldErrors(form, err),
    }
    if (passkey) rename.mutate({ id: passkey.id, name }, done)
    else add.mutate(name, done)
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)}>
      <DialogContent className="sm:max-w-md" data-testid="passkey-name-dialog">
        <DialogHeader>
          <DialogTitle>{passkey ? t('passkeys.renameTitle') : t('passkeys.addTitle')}</DialogTitle>
          <DialogDescription>{passkey ? t('passkeys.renameDescription') : t('passkeys.addDescription')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="passkey-name-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <InputField
              control={form.control}
              name="name"
              label={t('passkeys.name')}
              placeholder={t('passkeys.namePlaceholder')}
              maxLength={PASSKEY_NAME_MAX}
              autoComplete="off"
              autoFocus
            />
          </form>
        </Form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {tc('cancel')}
          </Button>
          <Button type="submit" form="passkey-name-form" disabled={pending} data-testid="passkey-name-submit">
            {pending ? <Loader2 className="animate-spin" /> : passkey ? <Save /> : <Fingerprint />}
            {passkey ? t('passkeys.save') : t('passkeys.continue')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

/**
 * Create or edit one MCP tool server: name, URL, write-only auth headers (`Name: value` lines; the
 * stored header names are shown, and leaving the box empty keeps them), an optional OAuth
 * client-credentials grant (the secret write-only likewise), groups, timeout, enabled, free.
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { InputField, SwitchField, TextareaField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { type McpServerView, useSaveServer } from '../api'
import { formDefaults, serverFormSchema, type ServerFormValues, toBody } from '../schema'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  row?: McpServerView
}

export function McpServerDialog({ open, onOpenChange, row }: Props) {
  const { t } = useTranslation('mcp')
  const save = useSaveServer()
  const form = useForm<ServerFormValues>({ resolver: zodResolver(serverFormSchema), defaultValues: formDefaults(row) })
  const onSubmit = (v: ServerFormValues) => save.mutate({ id: row?.id, ...toBody(v, row) }, { onSuccess: () => onOpenChange(false), onError: (err) => applyFieldErrors(form, err) })
  const stored = row?.header_names.length ? t('form.headersStored', { names: row.header_names.join(', ') }) : t('form.headersNone')

  return (
    <Dialog open={open} onOpenChange={(o) => !save.isPending && onOpenChange(o)}>
      <DialogContent data-testid="mcp-server-dialog" className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{row ? t('form.editTitle') : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{t('form.description')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="mcp-server-form" onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4" noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <InputField control={form.control} name="name" label={t('fields.name')} description={t('form.nameHint')} autoComplete="off" placeholder="calc" />
              <InputField control={form.control} name="timeout_ms" label={t('fields.timeout')} inputMode="numeric" autoComplete="off" />
            </div>
            <InputField control={form.control} name="url" label={t('fields.url')} autoComplete="off" placeholder="https://mcp.example.com/mcp" />
            <TextareaField
              control={form.control}
              name="headers"
              label={t('fields.headers')}
              description={`${t('form.headersHint')} ${stored}`}
              textareaClassName="min-h-20 font-mono text-sm"
              placeholder="Authorization: Bearer …"
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <InputField
                control={form.control}
                name="oauth_token_url"
                label={t('fields.tokenUrl')}
                description={t('form.oauthHint')}
                autoComplete="off"
                placeholder="https://auth.example.com/oauth/token"
              />
              <InputField control={form.control} name="oauth_client_id" label={t('fields.clientId')} autoComplete="off" />
              <InputField
                control={form.control}
                name="oauth_client_secret"
                label={t('fields.clientSecret')}
                description={row?.oauth?.has_secret ? t('form.secretStored') : t('form.secretNone')}
                type="password"
                autoComplete="new-password"
              />
              <InputField control={form.control} name="oauth_scope" label={t('fields.scope')} autoComplete="off" />
            </div>
            <InputField control={form.control} name="groups" label={t('fields.groups')} description={t('form.groupsHint')} autoComplete="off" placeholder="default, vip" />
            <div className="grid gap-3 sm:grid-cols-2">
              <SwitchField control={form.control} name="enabled" label={t('fields.enabled')} />
              <SwitchField control={form.control} name="free" label={t('fields.free')} description={t('form.freeHint')} />
            </div>
          </form>
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" form="mcp-server-form" disabled={save.isPending} data-testid="mcp-server-save">
            {save.isPending && <Loader2 className="animate-spin" />}
            {t('actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

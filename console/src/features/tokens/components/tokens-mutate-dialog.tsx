/**
 * Create / edit an API key (one form for both): name, remaining quota (dollars when the site
 * shows currency) or unlimited, expiry or never, group (the user's own or a public one), model
 * whitelist, IP/CIDR whitelist, the cache flag, and limits and budget (with the current period's use). Creating hands the new key to the "created"
 * dialog; admins editing another user's key save through /api/token/admin.
 */
import { useMemo } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useQuery } from '@tanstack/react-query'
import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { InputField, SwitchField, TextareaField } from '@/components/form-fields'
import { TagInput } from '@/components/tag-input'
import { displayInCurrency, quotaPerUnit } from '@/lib/format'
import { applyFieldErrors } from '@/lib/handle-error'
import { useAuthUser } from '@/stores/auth-store'
import { availableModelsQueryOptions, mcpToolsQueryOptions, useCreateToken, useUpdateToken, userGroupsQueryOptions, type Token } from '../api'
import { toLocalInput, tokenBody, tokenFormDefaults, tokenFormSchema, type TokenFormValues } from '../schema'
import { useTokensDialog } from './tokens-provider'
import { TokenLimitsFields } from './token-limits-fields'

const OWN = '__own'
const DAY = 24 * 3600
const QUICK_EXPIRY = [
  { label: 'expiry.day', seconds: DAY },
  { label: 'expiry.month', seconds: 30 * DAY },
  { label: 'expiry.year', seconds: 365 * DAY },
] as const

interface MutateProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  row?: Token
}

export function TokensMutateDialog({ open, onOpenChange, row }: MutateProps) {
  const { t } = useTranslation('tokens')
  const ctx = useTokensDialog()
  const me = useAuthUser()
  const currency = displayInCurrency()
  // An admin editing someone else's key in the all-users mode goes through /api/token/admin.
  const asAdmin = ctx.admin && Boolean(row) && row?.user_id !== me?.id
  const create = useCreateToken()
  const update = useUpdateToken(asAdmin)
  const groups = useQuery(userGroupsQueryOptions).data ?? {}
  const models = useQuery(availableModelsQueryOptions).data ?? []
  const schema = useMemo(() => tokenFormSchema(currency), [currency])
  const form = useForm<TokenFormValues>({ resolver: zodResolver(schema), defaultValues: tokenFormDefaults(row) })
  const [unlimited, never, modelsOn, ipOn, group] = useWatch({ control: form.control, name: ['unlimited_quota', 'never_expires', 'models_enabled', 'ip_enabled', 'group'] })
  const mcpTools = useQuery(mcpToolsQueryOptions(group)).data ?? []
  const pending = create.isPending || update.isPending

  const groupOptions = Object.entries(groups)
  const currentGroup = form.getValues('group')
  if (currentGroup && !groups[currentGroup]) groupOptions.push([currentGroup, { name: currentGroup, ratio: 1, public: false }])

  const onSubmit = (v: TokenFormValues) => {
    const onError = (err: unknown) => applyFieldErrors(form, err)
    if (row) update.mutate({ ...tokenBody(v), id: row.id }, { onSuccess: () => onOpenChange(false), onError })
    else create.mutate(tokenBody(v), { onSuccess: (created) => ctx.open({ kind: 'created', row: created }), onError })
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl" data-testid="token-dialog">
        <DialogHeader>
          <DialogTitle>{row ? t('form.editTitle', { name: row.name }) : t('form.createTitle')}</DialogTitle>
          <DialogDescription>{row ? t('form.editDescription') : t('form.createDescription')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form id="token-form" onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
            <InputField control={form.control} name="name" label={t('fields.name')} placeholder={t('form.namePlaceholder')} autoComplete="off" />

            <SwitchField control={form.control} name="unlimited_quota" label={t('form.unlimited')} description={t('form.unlimitedHint')} data-testid="token-unlimited" />
            {!unlimited && (
              <InputField
                control={form.control}
                name="remain_quota"
                type="number"
                inputMode="decimal"
                min={0}
                step={currency ? 0.01 : 1}
                label={currency ? t('form.quotaUsd') : t('form.quotaUnits')}
                description={currency ? t('form.quotaUsdHint', { units: quotaPerUnit() }) : t('form.quotaUnitsHint')}
              />
            )}

            <SwitchField control={form.control} name="never_expires" label={t('form.neverExpires')} description={t('form.neverExpiresHint')} />
            {!never && (
              <FormField
                control={form.control}
                name="expires_at"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{t('form.expiresAt')}</FormLabel>
                    <div className="flex flex-wrap gap-2">
                      <FormControl>
                        <Input type="datetime-local" {...field} className="w-full sm:w-60" />
                      </FormControl>
                      {QUICK_EXPIRY.map((q) => (
                        <Button
                          key={q.label}
                          type="button"
                          variant="outline"
                          size="sm"
                          className="h-9"
                          onClick={() => form.setValue('expires_at', toLocalInput(Math.floor(Date.now() / 1000) + q.seconds), { shouldDirty: true, shouldValidate: true })}
                        >
                          {t(q.label)}
                        </Button>
                      ))}
                    </div>
                    <FormMessage />
                  </FormItem>
                )}
              />
            )}

            <FormField
              control={form.control}
              name="group"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('fields.group')}</FormLabel>
                  <Select value={field.value || OWN} onValueChange={(v) => field.onChange(v === OWN ? '' : v)}>
                    <FormControl>
                      <SelectTrigger>
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      <SelectItem value={OWN}>{t('form.ownGroup', { group: me?.group ?? '' })}</SelectItem>
                      {groupOptions.map(([symbol, info]) => (
                        <SelectItem key={symbol} value={symbol}>
                          {info.name && info.name !== symbol ? `${info.name} (${symbol})` : symbol} · {t('form.ratio', { ratio: info.ratio })}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormDescription>{t('form.groupHint')}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />

            <SwitchField control={form.control} name="models_enabled" label={t('form.modelLimit')} description={t('form.modelLimitHint')} />
            {modelsOn && (
              <FormField
                control={form.control}
                name="models"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{t('form.allowedModels')}</FormLabel>
                    <FormControl>
                      <TagInput
                        value={field.value}
                        onChange={field.onChange}
                        onBlur={field.onBlur}
                        suggestions={models}
                        placeholder={t('form.modelsPlaceholder')}
                        removeLabel={(m) => t('form.removeValue', { value: m })}
                        data-testid="token-models-input"
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            )}

            <SwitchField control={form.control} name="ip_enabled" label={t('form.ipLimit')} description={t('form.ipLimitHint')} />
            {ipOn && (
              <TextareaField
                control={form.control}
                name="ip_whitelist"
                label={t('form.ipWhitelist')}
                rows={3}
                textareaClassName="font-mono text-xs"
                spellCheck={false}
                placeholder={'203.0.113.7\n10.0.0.0/8\n2001:db8::/32'}
                description={t('form.ipWhitelistHint')}
              />
            )}

            <SwitchField control={form.control} name="chat_cache" label={t('form.chatCache')} description={t('form.chatCacheHint')} />

            <FormField
              control={form.control}
              name="mcp_tools"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('form.mcpTools')}</FormLabel>
                  <FormControl>
                    <TagInput
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      suggestions={mcpTools}
                      placeholder={t('form.mcpToolsPlaceholder')}
                      removeLabel={(m) => t('form.removeValue', { value: m })}
                      data-testid="token-mcp-tools-input"
                    />
                  </FormControl>
                  <FormDescription>{t('form.mcpToolsHint')}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />

            <TokenLimitsFields control={form.control} use={row?.budget_use} />
          </form>
        </Form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" form="token-form" disabled={pending} data-testid="token-submit">
            {pending && <Loader2 className="animate-spin" />}
            {row ? t('form.save') : t('form.create')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

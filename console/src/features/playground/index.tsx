/**
 * The chat playground: pick a key (the hidden
 * playground key or one of the user's own) and a model that key may use, then chat with it
 * through the real relay, the answer streaming in as it is written. Settings sit beside the chat
 * on large screens and in a sheet on small ones; the conversation lives in this tab's session.
 * A model without a price is explained above the chat (the relay would refuse it).
 */
import { useEffect, useMemo, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Eraser, SlidersHorizontal } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { PageHeader } from '@/components/page-header'
import { LG_QUERY, useMediaQuery } from '@/hooks/use-media-query'
import { cn } from '@/lib/utils'
import { modelsQueryOptions, playgroundTokenQueryOptions, tokensQueryOptions } from './api'
import { ChatComposer } from './components/chat-composer'
import { ChatMessages } from './components/chat-messages'
import { PlaygroundSettingsForm } from './components/playground-settings'
import { UnpricedModelAlert } from './components/unpriced-model-alert'
import { PLAYGROUND_TOKEN, settingsSchema, type PlaygroundSettings } from './schema'
import { loadSettings, saveSettings } from './session'
import { useChat } from './use-chat'

export function Playground({ variant = 'console' }: { variant?: 'console' | 'public' }) {
  const { t } = useTranslation('playground')
  const desktop = useMediaQuery(LG_QUERY)
  const [sheetOpen, setSheetOpen] = useState(false)
  const [confirmClear, setConfirmClear] = useState(false)
  const [draft, setDraft] = useState('')

  const form = useForm<PlaygroundSettings>({ resolver: zodResolver(settingsSchema), defaultValues: loadSettings(), mode: 'onChange' })
  const watched = useWatch({ control: form.control })
  const settings = useMemo(() => ({ ...form.getValues(), ...watched }) as PlaygroundSettings, [watched, form])

  // The key: the hidden playground key, or one of the user's enabled keys.
  const tokens = useQuery(tokensQueryOptions)
  const usePlaygroundKey = settings.token === PLAYGROUND_TOKEN
  const playgroundToken = useQuery({ ...playgroundTokenQueryOptions, enabled: usePlaygroundKey })
  const chosen = tokens.data?.find((token) => String(token.id) === settings.token)
  const key = usePlaygroundKey ? playgroundToken.data?.key : chosen?.key
  useEffect(() => {
    // A remembered key that was deleted or disabled since.
    if (!usePlaygroundKey && tokens.data && !chosen) form.setValue('token', PLAYGROUND_TOKEN)
  }, [usePlaygroundKey, tokens.data, chosen, form])

  // The models that key may use; keep the chosen one if it is among them.
  const models = useQuery({ ...modelsQueryOptions(key ?? ''), enabled: !!key })
  useEffect(() => {
    if (models.data && !models.data.includes(form.getValues('model'))) {
      form.setValue('model', models.data[0] ?? '', { shouldValidate: true })
    }
  }, [models.data, form])

  useEffect(() => saveSettings(settings), [settings])

  const chat = useChat()
  const ready = !!key && settingsSchema.safeParse(settings).success
  const send = () => {
    const text = draft.trim()
    if (!text || !key || !ready) return
    chat.send(text, key, settings)
    setDraft('')
  }
  const keyLoading = usePlaygroundKey ? playgroundToken.isPending : tokens.isPending
  const hint = !key && keyLoading ? t('composer.preparing') : !ready && key && models.data?.length === 0 ? t('composer.noModels') : undefined

  const settingsPanel = <PlaygroundSettingsForm form={form} tokens={tokens.data} models={models.data} modelsLoading={!!key && models.isPending} />
  const actions = (
    <>
      {!desktop && (
        <Button variant="outline" size="sm" onClick={() => setSheetOpen(true)} data-testid="open-settings">
          <SlidersHorizontal />
          {t('settings.title')}
        </Button>
      )}
      <Button variant="outline" size="sm" onClick={() => setConfirmClear(true)} disabled={!chat.messages.length} data-testid="chat-clear">
        <Eraser />
        {t('clear.button')}
      </Button>
    </>
  )

  return (
    <div className={cn(variant === 'public' && 'mx-auto w-full max-w-[1400px] px-4 py-6 md:px-6')} data-testid="playground">
      <PageHeader title={t('title')} description={t('description')} actions={actions} />
      <UnpricedModelAlert models={models.data} model={settings.model} />
      <div className="grid items-start gap-4 md:gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
        <Card
          className={cn(
            'flex min-h-[24rem] flex-col gap-0 overflow-hidden py-0',
            variant === 'public'
              ? 'h-[calc(100svh-20rem)] sm:h-[calc(100svh-17rem)] lg:h-[calc(100svh-15rem)]'
              : 'h-[calc(100svh-18rem)] sm:h-[calc(100svh-14rem)] lg:h-[calc(100svh-11.5rem)]'
          )}
        >
          <ChatMessages messages={chat.messages} onExample={setDraft} />
          <ChatComposer value={draft} onChange={setDraft} onSend={send} onStop={chat.stop} streaming={chat.streaming} disabled={!ready} hint={hint} />
        </Card>
        {desktop && (
          <Card className="gap-4 lg:sticky lg:top-22">
            <CardHeader>
              <CardTitle>{t('settings.title')}</CardTitle>
              <CardDescription>{t('settings.description')}</CardDescription>
            </CardHeader>
            <CardContent>{settingsPanel}</CardContent>
          </Card>
        )}
      </div>
      {!desktop && (
        <Sheet open={sheetOpen} onOpenChange={setSheetOpen}>
          <SheetContent side="right" className="w-[min(22rem,100vw)] gap-0 overflow-y-auto p-5" data-testid="settings-sheet">
            <SheetTitle className="pr-8">{t('settings.title')}</SheetTitle>
            <SheetDescription className="mt-1 mb-5">{t('settings.description')}</SheetDescription>
            {settingsPanel}
          </SheetContent>
        </Sheet>
      )}
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title={t('clear.title')}
        description={t('clear.description')}
        confirmText={t('clear.confirm')}
        destructive
        onConfirm={() => {
          chat.clear()
          setConfirmClear(false)
        }}
      />
    </div>
  )
}

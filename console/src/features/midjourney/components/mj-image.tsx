/** A task's result image: a thumbnail that opens the full image in a lightbox, with a link to the original. */
import { useState } from 'react'
import { ExternalLink } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'

export function MjImage({ url, id }: { url: string; id: number }) {
  const { t } = useTranslation('midjourney')
  const [open, setOpen] = useState(false)
  const [broken, setBroken] = useState(false)
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="block cursor-zoom-in overflow-hidden rounded-md border bg-muted"
        aria-label={t('image.open', { id })}
        data-testid="mj-thumb"
      >
        {broken ? (
          <span className="flex size-14 items-center justify-center text-[10px] text-muted-foreground">{t('image.broken')}</span>
        ) : (
          <img src={url} alt="" loading="lazy" className="size-14 object-cover" onError={() => setBroken(true)} />
        )}
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-3xl" data-testid="mj-lightbox">
          <DialogHeader>
            <DialogTitle>{t('image.title', { id })}</DialogTitle>
            <DialogDescription>
              <a href={url} target="_blank" rel="noreferrer noopener" className="inline-flex items-center gap-1 break-all underline-offset-4 hover:underline">
                {t('image.original')} <ExternalLink className="size-3" />
              </a>
            </DialogDescription>
          </DialogHeader>
          <img src={url} alt={t('image.title', { id })} className="max-h-[70vh] w-full rounded-md object-contain" />
        </DialogContent>
      </Dialog>
    </>
  )
}

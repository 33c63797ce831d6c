/**
 * The site notice (GET /api/notice) shown once in the console: when it is non-empty and differs
 * from the last one the user closed (localStorage `notice`).
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { MarkdownContent } from '@/components/markdown-content'
import { STORAGE_KEYS, readString, writeString } from '@/lib/storage'
import { noticeQueryOptions } from '@/features/site/api'

export function NoticeDialog() {
  const { t } = useTranslation()
  const { data } = useQuery(noticeQueryOptions)
  const notice = data?.trim() ?? ''
  const [seen, setSeen] = useState(() => readString(STORAGE_KEYS.notice))
  const open = notice !== '' && notice !== seen

  const close = () => {
    writeString(STORAGE_KEYS.notice, notice)
    setSeen(notice)
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && close()}>
      <DialogContent className="sm:max-w-2xl" data-testid="notice-dialog">
        <DialogHeader>
          <DialogTitle>{t('notice.title')}</DialogTitle>
          <DialogDescription className="sr-only">{t('notice.title')}</DialogDescription>
        </DialogHeader>
        <MarkdownContent content={notice} className="max-h-[60vh] overflow-y-auto" />
        <DialogFooter>
          <Button onClick={close}>{t('notice.acknowledge')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

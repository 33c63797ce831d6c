/** Pager under every list: total rows, rows per page (10/20/50/100) and first/previous/next/last. */
import type { Table } from '@tanstack/react-table'
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { PAGE_SIZES } from './use-server-table'

export function DataTablePagination<T>({ table, totalLabel }: { table: Table<T>; totalLabel?: string }) {
  const { t } = useTranslation('table')
  const { pageIndex, pageSize } = table.getState().pagination
  const pages = table.getPageCount()
  const selected = table.getSelectedRowModel().rows.length
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 px-1 py-3 text-sm text-muted-foreground">
      <div>{selected > 0 ? t('selected', { count: selected }) : (totalLabel ?? t('total', { count: table.getRowCount() }))}</div>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <span className="hidden sm:inline">{t('rowsPerPage')}</span>
          <Select value={String(pageSize)} onValueChange={(v) => table.setPagination({ pageIndex: 0, pageSize: Number(v) })}>
            <SelectTrigger className="h-8 w-[72px]" aria-label={t('rowsPerPage')}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PAGE_SIZES.map((size) => (
                <SelectItem key={size} value={String(size)}>
                  {size}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <span>{t('page', { page: pageIndex + 1, pages })}</span>
        <div className="flex items-center gap-1">
          <Button variant="outline" size="icon" className="size-8" aria-label={t('first')} onClick={() => table.setPageIndex(0)} disabled={pageIndex === 0}>
            <ChevronsLeft />
          </Button>
          <Button variant="outline" size="icon" className="size-8" aria-label={t('previous')} onClick={() => table.previousPage()} disabled={pageIndex === 0}>
            <ChevronLeft />
          </Button>
          <Button variant="outline" size="icon" className="size-8" aria-label={t('next')} onClick={() => table.nextPage()} disabled={pageIndex + 1 >= pages}>
            <ChevronRight />
          </Button>
          <Button variant="outline" size="icon" className="size-8" aria-label={t('last')} onClick={() => table.setPageIndex(pages - 1)} disabled={pageIndex + 1 >= pages}>
            <ChevronsRight />
          </Button>
        </div>
      </div>
    </div>
  )
}

/** The leading checkbox column for lists with bulk actions. */
import type { ColumnDef } from '@tanstack/react-table'
import { Checkbox } from '@/components/ui/checkbox'

export function selectionColumn<T>(labels: { all: string; row: string }): ColumnDef<T> {
  return {
    id: 'select',
    enableSorting: false,
    enableHiding: false,
    meta: { className: 'w-8' },
    header: ({ table }) => (
      <Checkbox
        aria-label={labels.all}
        checked={table.getIsAllPageRowsSelected() || (table.getIsSomePageRowsSelected() && 'indeterminate')}
        onCheckedChange={(v) => table.toggleAllPageRowsSelected(Boolean(v))}
      />
    ),
    cell: ({ row }) => <Checkbox aria-label={labels.row} checked={row.getIsSelected()} onCheckedChange={(v) => row.toggleSelected(Boolean(v))} />,
  }
}

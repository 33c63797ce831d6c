/** `/panel/midjourney` (every signed-in user; admins may see all tasks): paging and filters live in the URL. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Midjourney } from '@/features/midjourney'
import { taskSearchSchema } from '@/features/tasks/search'

export const Route = createFileRoute('/panel/midjourney')({
  validateSearch: taskSearchSchema.omit({ platform: true }),
  loader: () => loadNamespaces('midjourney', 'tasks'),
  component: Midjourney,
})

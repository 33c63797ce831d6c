/** `/panel/task` (every signed-in user; admins may see all tasks): Suno tasks, paging and filters in the URL. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Tasks } from '@/features/tasks'
import { taskSearchSchema } from '@/features/tasks/search'

export const Route = createFileRoute('/panel/task')({
  validateSearch: taskSearchSchema,
  loader: () => loadNamespaces('tasks'),
  component: Tasks,
})

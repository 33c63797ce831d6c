/** `/panel/playground`: the chat playground inside the console. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Playground } from '@/features/playground'

export const Route = createFileRoute('/panel/playground')({
  loader: () => loadNamespaces('playground', 'table'),
  component: () => <Playground />,
})

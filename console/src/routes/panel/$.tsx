/** Unknown console paths (including /panel/404): the not-found page inside the console layout. */
import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '@/features/errors/not-found'

export const Route = createFileRoute('/panel/$')({ component: () => <NotFound inConsole /> })

/** `/404` not found. */
import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '@/features/errors/not-found'

export const Route = createFileRoute('/_public/404')({ component: () => <NotFound /> })

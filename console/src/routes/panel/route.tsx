/** `/panel`: the console layout, for signed-in users only. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { ConsoleLayout } from '@/components/layout/console-layout'
import { authStore } from '@/stores/auth-store'

export const Route = createFileRoute('/panel')({
  beforeLoad: () => {
    if (!authStore.getUser()) throw redirect({ to: '/login' })
  },
  component: ConsoleLayout,
})

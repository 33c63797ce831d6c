/** The 404 page: public (/404) and inside the console (unknown /panel/* paths). */
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

export function NotFound({ inConsole = false }: { inConsole?: boolean }) {
  const { t } = useTranslation()
  return (
    <div className={cn('flex flex-1 flex-col items-center justify-center gap-3 px-4 text-center', inConsole ? 'py-20' : 'py-24')} data-testid="not-found">
      <p className="bg-gradient-to-b from-primary to-primary/40 bg-clip-text text-7xl font-bold text-transparent sm:text-8xl">404</p>
      <h1 className="text-xl font-semibold">{t('notFound.title')}</h1>
      <p className="max-w-md text-muted-foreground">{t('notFound.description')}</p>
      <Button asChild className="mt-3">
        {inConsole ? <Link to="/panel">{t('notFound.backConsole')}</Link> : <Link to="/">{t('notFound.backHome')}</Link>}
      </Button>
    </div>
  )
}

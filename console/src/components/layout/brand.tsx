/** The site logo (custom image or the default mark) and system name, linking to the base path. */
import { Link } from '@tanstack/react-router'
import { useSiteInfo } from '@/features/site/api'
import { cn } from '@/lib/utils'

export function BrandMark({ className }: { className?: string }) {
  const { logo, system_name } = useSiteInfo()
  if (logo) return <img src={logo} alt={system_name} className={cn('size-8 rounded-lg object-contain', className)} />
  return (
    <span aria-hidden className={cn('flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm', className)}>
      <svg viewBox="0 0 32 32" className="size-5">
        <path d="M9 22 16 9l7 13M11.8 17.5h8.4" fill="none" stroke="currentColor" strokeWidth="2.8" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  )
}

export function Brand({ className, onClick }: { className?: string; onClick?: () => void }) {
  const { system_name } = useSiteInfo()
  return (
    <Link to="/" onClick={onClick} className={cn('flex min-w-0 items-center gap-2.5 font-semibold', className)}>
      <BrandMark />
      <span className="truncate text-base tracking-tight">{system_name}</span>
    </Link>
  )
}

/**
 * Marks of the sign-in methods (lucide no longer ships brand marks): GitHub and WeChat drawn here,
 * lucide shapes for Lark, OIDC, email and Telegram. Colours are the brands' own where they have one.
 */
import type { ComponentType, SVGProps } from 'react'
import { Bird, Mail, Send, ShieldCheck } from 'lucide-react'
import { cn } from '@/lib/utils'
import type { BindingType } from '../providers'

type IconProps = SVGProps<SVGSVGElement>

export function GithubIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden {...props}>
      <path d="M12 .5a11.5 11.5 0 0 0-3.64 22.41c.58.1.79-.25.79-.56v-2c-3.2.7-3.88-1.36-3.88-1.36-.52-1.34-1.28-1.7-1.28-1.7-1.05-.71.08-.7.08-.7 1.16.08 1.77 1.19 1.77 1.19 1.03 1.77 2.7 1.26 3.36.96.1-.75.4-1.26.73-1.55-2.55-.29-5.24-1.28-5.24-5.68 0-1.25.45-2.28 1.18-3.08-.12-.29-.51-1.46.11-3.04 0 0 .97-.31 3.17 1.18a11 11 0 0 1 5.77 0c2.2-1.49 3.17-1.18 3.17-1.18.63 1.58.23 2.75.11 3.04.74.8 1.18 1.83 1.18 3.08 0 4.41-2.69 5.38-5.26 5.67.41.36.78 1.06.78 2.14v3.17c0 .31.21.67.8.56A11.5 11.5 0 0 0 12 .5Z" />
    </svg>
  )
}

/** Two speech bubbles with eyes, the shape people know from WeChat. */
export function WeChatIcon({ className, ...props }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden className={cn('text-[#07c160]', className)} {...props}>
      <path
        fill="currentColor"
        d="M9.1 3.6C4.9 3.6 1.5 6.4 1.5 9.9c0 2 1.1 3.7 2.8 4.9l-.7 2.2 2.6-1.3c.9.3 1.9.4 2.9.4h.5a5.7 5.7 0 0 1-.2-1.6c0-3.5 3.3-6.3 7.4-6.3h.6C16.6 5.6 13.2 3.6 9.1 3.6Z"
      />
      <path fill="currentColor" d="M22.5 14.5c0-2.9-2.8-5.2-6.2-5.2s-6.2 2.3-6.2 5.2 2.8 5.2 6.2 5.2c.7 0 1.4-.1 2-.3l2.1 1.1-.6-1.8c1.6-1 2.7-2.5 2.7-4.2Z" />
      <g fill="white">
        <circle cx="6.4" cy="8.4" r="1" />
        <circle cx="11.4" cy="8.4" r="1" />
        <circle cx="14.2" cy="13.3" r=".85" />
        <circle cx="18.4" cy="13.3" r=".85" />
      </g>
    </svg>
  )
}

export function LarkIcon({ className, ...props }: IconProps) {
  return <Bird aria-hidden className={cn('text-[#3370ff]', className)} {...props} />
}

export function OidcIcon({ className, ...props }: IconProps) {
  return <ShieldCheck aria-hidden className={cn('text-primary', className)} {...props} />
}

export const BINDING_ICONS: Record<BindingType | 'telegram', ComponentType<IconProps>> = {
  email: Mail,
  github: GithubIcon,
  oidc: OidcIcon,
  lark: LarkIcon,
  wechat: WeChatIcon,
  telegram: Send,
}

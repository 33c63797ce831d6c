/**
 * Cells of the tokens table: the masked key with a copy button (under the name), the status badge with its enable/disable switch (own keys only; an
 * expired key cannot be enabled until its expiry changes) and the chat-link menu that opens /jump in a new tab with the key.
 */
import { Copy, MessagesSquare } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { Switch } from '@/components/ui/switch'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { copyText } from '@/lib/clipboard'
import { jumpHref, type ChatLink } from '@/features/jump/chat-links'
import { useSetTokenStatus, type Token } from '../api'
import { STATE_CLASS, maskKey, tokenState } from '../options'
import { TOKEN_STATUS } from '@contract/enums'

export function TokenStatusCell({ row, canToggle }: { row: Token; canToggle: boolean }) {
  const { t } = useTranslation('tokens')
  const setStatus = useSetTokenStatus()
  const state = tokenState(row)
  return (
    <div className="flex items-center gap-2">
      {canToggle && (
        <Switch
          checked={row.status === TOKEN_STATUS.ENABLED}
          disabled={setStatus.isPending || (state === 'expired' && row.status !== TOKEN_STATUS.ENABLED)}
          aria-label={row.status === TOKEN_STATUS.ENABLED ? t('actions.disable', { name: row.name }) : t('actions.enable', { name: row.name })}
          data-testid={`token-switch-${row.id}`}
          onCheckedChange={(on) => setStatus.mutate({ id: row.id, status: on ? 1 : 2 })}
        />
      )}
      <Badge className={STATE_CLASS[state]} data-testid={`token-status-${row.id}`}>
        {t(`status.${state}`)}
      </Badge>
    </div>
  )
}

/**
 * `reveal` fetches the full key when the row only carries a masked one (admins' all-users mode); `null` hides the copy button (another
 * user's key that only root may reveal).
 */
export function TokenKeyCell({ row, reveal }: { row: Token; reveal?: (() => Promise<string>) | null }) {
  const { t } = useTranslation('tokens')
  if (reveal === null) return <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs whitespace-nowrap text-muted-foreground">{maskKey(row.key)}</code>
  const copy = async () => copyText(reveal ? await reveal() : row.key)
  return (
    <div className="flex items-center gap-1">
      <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs whitespace-nowrap text-muted-foreground">{maskKey(row.key)}</code>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="size-6"
            aria-label={t('actions.copyKey', { name: row.name })}
            data-testid={`token-copy-${row.id}`}
            onClick={() => void copy()}
          >
            <Copy className="size-3.5" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{t('actions.copy')}</TooltipContent>
      </Tooltip>
    </div>
  )
}

export function TokenChatMenu({ row, links }: { row: Token; links: ChatLink[] }) {
  const { t } = useTranslation('tokens')
  if (links.length === 0) return null
  return (
    <DropdownMenu modal={false}>
      <Tooltip>
        <TooltipTrigger asChild>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" className="size-8" aria-label={t('actions.chat', { name: row.name })} data-testid={`token-chat-${row.id}`}>
              <MessagesSquare />
            </Button>
          </DropdownMenuTrigger>
        </TooltipTrigger>
        <TooltipContent>{t('actions.chatTooltip')}</TooltipContent>
      </Tooltip>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">{t('chat.label')}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {links.map((link) => (
          <DropdownMenuItem key={`${link.name}-${link.sort}`} onSelect={() => window.open(jumpHref(link.url, row.key), '_blank', 'noopener')}>
            {link.name}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

/**
 * The bot's handlers on grammY: /start (a bind code from the profile's deep link only asks "bind
 * this chat to <account>?"; the button, pressed by the same Telegram user, binds), /help, /bind, /unbind, /balance, /recharge, /apikey (masked keys, a button reveals one), /aff, and the
 * custom menus of the last reload. Account commands answer only in private chats and only for a
 * bound account; unbound chats get /start, /help and /bind. Each update id is handled once.
 */
import { Bot, InlineKeyboard, type Context } from 'grammy/web'
import { cacheKeys } from '../cache/keys'
import { ApiError } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import {
  affSummary,
  askToConfirmBind,
  balanceOf,
  bindWithCode,
  boundUser,
  CONFIRM_REF_PATTERN,
  confirmBind,
  formatQuota,
  keysOf,
  recharge,
  revealKey,
  unbindTelegram,
  type BindOutcome,
} from './account'
import { createBot, type AppliedState, type TelegramConfig } from './config'
import { TOKEN_STATUS } from '../../shared/contract/enums'

/** Commands the gateway owns; a custom menu may not take these names. */
export const DEFAULT_COMMANDS = [
  { command: 'start', description: 'Start and show help' },
  { command: 'help', description: 'What this bot can do' },
  { command: 'bind', description: 'Bind this chat: /bind <code from your profile>' },
  { command: 'unbind', description: 'Unbind this chat from your account' },
  { command: 'balance', description: 'Balance and usage' },
  { command: 'recharge', description: 'Redeem a code: /recharge <code>' },
  { command: 'apikey', description: 'Your API keys' },
  { command: 'aff', description: 'Invitation link and rewards' },
] as const

export const RESERVED_COMMANDS: ReadonlySet<string> = new Set(DEFAULT_COMMANDS.map((c) => c.command))

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const html = { parse_mode: 'HTML' as const }
const NOT_BOUND = 'This chat is not bound to a gateway account. Open your profile page in the console, create a bind code and send <code>/bind &lt;code&gt;</code>.'
const PARSE_MODES: Record<string, 'Markdown' | 'MarkdownV2' | 'HTML' | undefined> = {
  Markdown: 'Markdown',
  MarkdownV2: 'MarkdownV2',
  HTML: 'HTML',
  plain: undefined,
  '': undefined,
}

function helpText(applied: AppliedState | undefined, bound: boolean) {
  const own = bound ? DEFAULT_COMMANDS : DEFAULT_COMMANDS.filter((c) => c.command === 'start' || c.command === 'help' || c.command === 'bind')
  const menus = bound ? (applied?.menus ?? []) : []
  return [...own, ...menus].map((c) => `/${c.command} — ${esc(c.description)}`).join('\n')
}

function bindReply(ctx: Context, result: { outcome: BindOutcome; username?: string }) {
  const replies: Record<BindOutcome, string> = {
    bound: `Bound to <b>${esc(result.username ?? '')}</b>. Try /balance.`,
    invalid_code: 'This bind code is invalid or has expired. Create a new one on your profile page.',
    already_bound: 'This chat is already bound to that account.',
    telegram_taken: 'This Telegram account is already bound to another gateway account. Send /unbind there first.',
    account_taken: 'That gateway account is already bound to a Telegram account. Unbind it on the profile page first.',
  }
  return ctx.reply(replies[result.outcome], html)
}

async function bind(env: Env, ctx: Context, code: string) {
  if (!code) return ctx.reply('Send <code>/bind &lt;code&gt;</code> with the code shown on your profile page.', html)
  return bindReply(ctx, await bindWithCode(env, ctx.from!.id, code))
}

/** A deep link's code: anyone can send such a link, so the account is named and the user must press to bind. */
async function askToBind(env: Env, ctx: Context, code: string) {
  const asked = await askToConfirmBind(env, ctx.from!.id, code)
  if (!asked) return bindReply(ctx, { outcome: 'invalid_code' })
  const keyboard = new InlineKeyboard().text(`Bind to ${asked.username}`.slice(0, 60), `bind:${asked.ref}`)
  const text = `Bind this chat to <b>${esc(asked.username)}</b>?\n\nPress the button only if this is your own account and you made the bind code on its profile page yourself: codes you redeem here with /recharge credit that account.`
  return ctx.reply(text, { ...html, reply_markup: keyboard })
}

/** Account commands: private chat, bound and enabled account, else the "not bound" answer. */
function withAccount(env: Env, handler: (ctx: Context, user: NonNullable<Awaited<ReturnType<typeof boundUser>>>) => Promise<unknown>) {
  return async (ctx: Context) => {
    const user = ctx.from ? await boundUser(env, ctx.from.id) : undefined
    if (!user) return ctx.reply(NOT_BOUND, html)
    try {
      await handler(ctx, user)
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) return ctx.reply(esc(err.message), html)
      throw err
    }
  }
}

export function buildBot(env: Env, cfg: TelegramConfig, applied: AppliedState | undefined): Bot {
  const bot = createBot(cfg, applied?.bot)
  // Each update once: webhook retries and replays are dropped before any handler runs.
  bot.use(async (ctx, next) => {
    const key = cacheKeys.telegramUpdate(ctx.update.update_id)
    if (await env.CACHE.get(key)) return
    await env.CACHE.put(key, '1', { expirationTtl: 86400 })
    await env.CACHE.put(cacheKeys.telegramLastUpdate, String(nowSeconds()))
    await next()
  })
  const pm = bot.chatType('private')

  pm.command('start', async (ctx) => {
    if (ctx.match) return askToBind(env, ctx, ctx.match.trim())
    const bound = Boolean(await boundUser(env, ctx.from.id))
    return ctx.reply(`Welcome to <b>${esc(applied?.bot.first_name ?? 'the gateway bot')}</b>.\n\n${helpText(applied, bound)}`, html)
  })
  pm.command('help', async (ctx) => ctx.reply(helpText(applied, Boolean(await boundUser(env, ctx.from.id))), html))
  pm.command('bind', (ctx) => bind(env, ctx, ctx.match.trim()))
  pm.command(
    'unbind',
    withAccount(env, async (ctx, user) => {
      await unbindTelegram(env, user.id)
      await ctx.reply(`Unbound from <b>${esc(user.username)}</b>.`, html)
    })
  )
  pm.command(
    'balance',
    withAccount(env, async (ctx, user) => {
      const b = await balanceOf(env, user)
      await ctx.reply(`Balance: <b>${formatQuota(cfg, b.quota)}</b>\nUsed: ${formatQuota(cfg, b.used)}\nRequests: ${b.requests}`, html)
    })
  )
  pm.command(
    'recharge',
    withAccount(env, async (ctx, user) => {
      const code = (ctx.match as string).trim()
      if (!code) return void (await ctx.reply('Send <code>/recharge &lt;redemption code&gt;</code>.', html))
      const result = await recharge(env, user, code.slice(0, 64))
      const what = result.subscription ? `the plan <b>${esc(result.subscription.name)}</b>` : formatQuota(cfg, result.quota)
      await ctx.reply(`Redeemed ${what}. Balance: <b>${formatQuota(cfg, result.balance)}</b>`, html)
    })
  )
  pm.command(
    'apikey',
    withAccount(env, async (ctx, user) => {
      const keys = await keysOf(env, user.id)
      if (keys.length === 0) return void (await ctx.reply('You have no API keys yet. Create one under Tokens in the console.'))
      const keyboard = new InlineKeyboard()
      keys.forEach((k) => keyboard.text(`Reveal ${k.name}`.slice(0, 60), `key:${k.id}`).row())
      const lines = keys.map((k) => `<b>${esc(k.name)}</b>${k.status === TOKEN_STATUS.ENABLED ? '' : ' (disabled)'}\n<code>${k.masked}</code>`)
      await ctx.reply(lines.join('\n\n'), { ...html, reply_markup: keyboard })
    })
  )
  bot.callbackQuery(CONFIRM_REF_PATTERN, async (ctx) => {
    await ctx.answerCallbackQuery()
    if (ctx.chat?.type !== 'private') return
    return bindReply(ctx, await confirmBind(env, ctx.from.id, ctx.match[1]!))
  })
  bot.callbackQuery(/^key:(\d{1,12})$/, async (ctx) => {
    await ctx.answerCallbackQuery()
    const user = await boundUser(env, ctx.from.id)
    if (!user || ctx.chat?.type !== 'private') return ctx.reply(NOT_BOUND, html)
    try {
      const { key } = await revealKey(env, user, Number(ctx.match[1]))
      await ctx.reply(`Tap to copy:\n<code>${esc(key)}</code>`, html)
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) return ctx.reply(esc(err.message), html)
      throw err
    }
  })
  pm.command(
    'aff',
    withAccount(env, async (ctx, user) => {
      const a = affSummary(cfg, user)
      const code = a.code ? `Invitation code: <code>${esc(a.code)}</code>\n` : ''
      const link = a.link ? `Link: ${esc(a.link)}\n` : ''
      await ctx.reply(`${code}${link}Invited: ${a.invited}\nRewards: ${formatQuota(cfg, a.reward)}`, html)
    })
  )
  for (const menu of applied?.menus ?? []) {
    if (RESERVED_COMMANDS.has(menu.command)) continue
    pm.command(
      menu.command,
      withAccount(env, async (ctx) => {
        const mode = PARSE_MODES[menu.parse_mode]
        await ctx.reply(menu.reply_message, mode ? { parse_mode: mode } : {})
      })
    )
  }
  pm.on('message:text', async (ctx) => {
    if (ctx.message.text.startsWith('/')) await ctx.reply('Unknown command. Send /help for the list.')
  })
  return bot
}

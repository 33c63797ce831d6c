/** Types of scripts/mock-telegram-api.mjs for the worker tests. */
export const MOCK_BOT_TOKEN: string
export interface BotApiState {
  token: string
  me: { id: number; is_bot: true; first_name: string; username: string }
  calls: { method: string; params: Record<string, any> }[]
  updates: any[]
  webhook: { url: string; secret_token: string; last_error_date: number; last_error_message: string }
  commands: { command: string; description: string }[]
  nextUpdateId: number
  nextMessageId: number
}
export function createBotApiState(token?: string, username?: string): BotApiState
export function feed(state: BotApiState, update: Record<string, unknown>): any
export function textUpdate(state: BotApiState, fromId: number, text: string): Record<string, unknown>
export function callbackUpdate(state: BotApiState, fromId: number, data: string): Record<string, unknown>
export function sentMessages(state: BotApiState, chatId?: number): Record<string, any>[]
export function handleBotApi(state: BotApiState, pathname: string, params?: Record<string, any>): { status: number; body: any }

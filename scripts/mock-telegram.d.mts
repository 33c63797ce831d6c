/** Types of scripts/mock-telegram.mjs for the e2e tests. */
import type { BotApiState } from './mock-telegram-api.mjs'
export function startMockTelegram(options?: { port?: number; token?: string }): Promise<{ url: string; token: string; state: BotApiState; stop(): Promise<void> }>

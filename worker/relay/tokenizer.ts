/**
 * Token counting for answers whose upstream reported no usage: a real BPE tokenizer (js-tiktoken,
 * o200k_base for current OpenAI models, cl100k_base for older ones) whose rank files are served
 * from the static assets and loaded on first need — they stay out of the Worker bundle. With the
 * ApproximateTokenEnabled setting, a cheap character-based estimate is used instead.
 */
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite'
import { onIsolateReset } from '../cache/isolate'

type Encoding = 'o200k_base' | 'cl100k_base'
/** One load per encoding and isolate: concurrent first uses share it (a rank file is megabytes to parse). */
const encoders = new Map<Encoding, Promise<Tiktoken>>()
onIsolateReset(() => encoders.clear())

export function encodingFor(model: string): Encoding {
  return /^(gpt-3\.5|gpt-35|gpt-4(?!o|\.)|text-embedding|text-davinci)/.test(model) ? 'cl100k_base' : 'o200k_base'
}

async function encoder(env: Env, name: Encoding): Promise<Tiktoken> {
  // A load started by a request that was then cancelled fails for its waiters: they load again.
  try {
    return await sharedEncoder(env, name)
  } catch {
    return await sharedEncoder(env, name)
  }
}

function sharedEncoder(env: Env, name: Encoding): Promise<Tiktoken> {
  let loading = encoders.get(name)
  if (!loading) {
    loading = loadEncoder(env, name)
    encoders.set(name, loading)
    // A failed load is retried by the next caller rather than remembered.
    const mine = loading
    mine.catch(() => {
      if (encoders.get(name) === mine) encoders.delete(name)
    })
  }
  return loading
}

async function loadEncoder(env: Env, name: Encoding): Promise<Tiktoken> {
  const res = await env.ASSETS.fetch(new Request(`https://assets.local/tokenizer/${name}.json`))
  if (!res.ok) throw new Error(`tokenizer ranks ${name} unavailable (${res.status}); run npm run build`)
  return new Tiktoken((await res.json()) as TiktokenBPE)
}

export const approximateTokens = (text: string) => Math.ceil(text.length * 0.38)

export async function countTokens(env: Env, model: string, text: string, approximate: boolean): Promise<number> {
  if (!text) return 0
  if (approximate) return approximateTokens(text)
  return (await encoder(env, encodingFor(model))).encode(text, 'all').length
}

/** Prompt tokens of a chat request, OpenAI-style: 3 per message (+1 per name) + 3 for the reply primer. */
export async function countChatPrompt(env: Env, model: string, messages: unknown[], approximate: boolean): Promise<number> {
  let total = 3
  for (const m of messages as { content?: unknown; name?: string; role?: string }[]) {
    total += 3 + (m.name ? 1 : 0)
    total += await countTokens(env, model, String(m.role ?? ''), approximate)
    const content = typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content : ''
    if (typeof content === 'string') total += await countTokens(env, model, content, approximate)
    else {
      for (const part of content as { type?: string; text?: string }[]) {
        if (part.type === 'text') total += await countTokens(env, model, part.text ?? '', approximate)
        else if (part.type === 'image_url') total += 765
      }
    }
  }
  return total
}

/** Form schema of the WeChat code (the code the official account replies with). Messages are common `validation.*` keys. */
import { z } from 'zod'

export const wechatCodeSchema = z.object({
  code: z.string().trim().min(1, 'validation.required').max(128),
})
export type WeChatCodeValues = z.infer<typeof wechatCodeSchema>

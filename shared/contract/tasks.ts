/** Wire shapes of the console's task lists: Midjourney (GET /api/mj/, /api/mj/self) and Suno/Kling (GET /api/task/, /api/task/self). */

/** A Midjourney task; the admin list adds the channel, the owner and the upstream id. Times in milliseconds. */
export interface MjTaskView {
  id: number
  action: string
  status: string
  progress: string
  prompt: string
  prompt_en: string
  description: string
  fail_reason: string
  /** Through the image proxy when the MjImageProxy setting asks for it. */
  image_url: string
  submit_time: number
  start_time: number
  finish_time: number
  quota: number
  mode: string
  token_id: number
  channel_id?: number
  user_id?: number
  username?: string
  mj_id?: string
}

/** One Suno clip as the supplier described it. */
export interface SunoSong {
  id: string
  title?: string
  audio_url?: string
  video_url?: string
  image_url?: string
  image_large_url?: string
  model_name?: string
  status?: string
  text?: string
  metadata?: { tags?: string; prompt?: string; duration?: number | null; error_message?: string | null }
}

/** Suno lyrics (the LYRICS action). */
export interface SunoLyrics {
  id?: string
  title?: string
  text?: string
  status?: string
}

/** Kling's last reply as the gateway stored it (a video task's output is in task_result). */
export interface KlingReply {
  code?: number
  data?: { task_status?: string; task_status_msg?: string; task_result?: { videos?: { id?: string; url?: string; duration?: string }[] } }
}

/** A Suno or Kling task; the admin list adds the channel, the owner and the upstream id. Times in Unix seconds. */
export interface TaskView {
  id: number
  platform: string
  action: string
  status: string
  progress: string
  fail_reason: string
  submit_time: number
  start_time: number
  finish_time: number
  quota: number
  token_id: number
  properties: { title?: string; prompt?: string; tags?: string; mv?: string | null; model_name?: string; mode?: string; duration?: string }
  /** The supplier's output with user ids removed (songs or lyrics for Suno, the last reply for Kling). */
  data: SunoSong[] | SunoLyrics | KlingReply | null
  channel_id?: number
  user_id?: number
  username?: string
  task_id?: string
}

/**
 * Mock asynchronous-task suppliers: a midjourney-proxy (plus variant) under /mj and a Suno-API
 * server under /suno, speaking their real request and answer shapes. Pure (no Node APIs), so the
 * same protocol runs in `scripts/mock-upstream.mjs` (HTTP) and in worker tests (fetch-level mock).
 *
 * Tasks progress with time: SUBMITTED for one step, IN_PROGRESS (50%) for two, then SUCCESS — or
 * FAILURE when the prompt contains "fail" (one containing "slow" keeps running for ten minutes). A prompt containing "banned" is refused at submit (code
 * 24 / Suno `submit_failed`). Keys: `mock-401` answers 401; anything else is accepted.
 * A fast-mode imagine whose prompt contains "nofast" is refused with code 3 (no account with fast
 * hours left), as midjourney-proxy does when the fast hours are used up; relax mode accepts it.
 *
 * Under /kling it plays Kling's video API (`/kling/v1/videos/{text2video,image2video}` and
 * `GET …/{action}/{task_id}`, answers `{code:0, data:{task_id, task_status, task_result}}`): the
 * same pace and "fail"/"banned" prompts; a bearer that is not a three-part JWT when the channel key
 * was `ak|sk` cannot be told apart here, so any bearer but `mock-401` is accepted.
 *
 * notifyHook: when a Midjourney submit carries one, the mock calls `options.onTransition(hook,
 * delayMs, dto)` for each later state change (IN_PROGRESS, then SUCCESS/FAILURE); `dto()` gives the
 * task in the state that transition reached. The HTTP mock POSTs it after the delay; tests deliver it by hand.
 */

const STEP_MS = 1000
/** A prompt containing "slow" stays IN_PROGRESS for this many steps (ten minutes at the default pace). */
const SLOW_STEPS = 600

/** A fresh mock with its own task store; `now` is injectable so tests can move time. */
export function createTaskMock(options = {}) {
  const now = options.now ?? (() => Date.now())
  const stepMs = options.stepMs ?? STEP_MS
  const mj = new Map()
  const suno = new Map()
  let seq = 0
  const nextId = () => `${Date.now().toString(36)}${(++seq).toString(36).padStart(4, '0')}`

  const phase = (t, at = now()) => {
    const elapsed = at - t.submitTime
    if (elapsed < stepMs) return { status: 'SUBMITTED', progress: 0 }
    if (elapsed < 3 * stepMs || (t.slow && elapsed < SLOW_STEPS * stepMs)) return { status: 'IN_PROGRESS', progress: 50 }
    return t.fails ? { status: 'FAILURE', progress: 100 } : { status: 'SUCCESS', progress: 100 }
  }

  const mjDto = (t, at) => {
    const p = phase(t, at)
    const done = p.status === 'SUCCESS'
    return {
      id: t.id,
      action: t.action,
      customId: '',
      botType: 'MID_JOURNEY',
      prompt: t.prompt,
      promptEn: t.prompt,
      description: `/${t.action.toLowerCase()} ${t.prompt}`.trim(),
      state: t.state ?? '',
      submitTime: t.submitTime,
      startTime: p.status === 'SUBMITTED' ? 0 : t.submitTime + stepMs,
      finishTime: p.progress === 100 ? t.submitTime + 3 * stepMs : 0,
      imageUrl: done ? `https://cdn.discordapp.com/attachments/mock/${t.id}.png` : '',
      status: p.status,
      progress: `${p.progress}%`,
      failReason: p.status === 'FAILURE' ? 'Mock job failed as requested' : '',
      buttons:
        done && (t.action === 'IMAGINE' || t.action === 'VARIATION' || t.action === 'REROLL')
          ? [1, 2, 3, 4]
              .map((i) => ({ customId: `MJ::JOB::upsample::${i}::${t.id}`, emoji: '', label: `U${i}`, type: 2, style: 2 }))
              .concat([1, 2, 3, 4].map((i) => ({ customId: `MJ::JOB::variation::${i}::${t.id}`, emoji: '', label: `V${i}`, type: 2, style: 2 })))
          : [],
      properties: { finalPrompt: t.prompt, finalZhPrompt: '' },
    }
  }

  const reply = (status, body) => ({ status, body })
  const submitted = (t) => {
    mj.set(t.id, t)
    if (t.notifyHook && options.onTransition) {
      const last = t.slow ? SLOW_STEPS : 3
      // The DTO shows the state the transition is for: a timer may fire a millisecond early by the
      // wall clock, and the hook must still get IN_PROGRESS at step 1, not SUBMITTED.
      for (const steps of [1, last]) options.onTransition(t.notifyHook, steps * stepMs, () => mjDto(t, t.submitTime + steps * stepMs))
    }
    return reply(200, { code: 1, description: 'Submit success', result: t.id, properties: {} })
  }

  function midjourney(method, path, body) {
    const submit = path.match(/^\/mj\/submit\/([a-z-]+)$/)
    if (method === 'POST' && (submit || path === '/mj/insight-face/swap')) {
      const route = submit ? submit[1] : 'swap'
      const modes = body?.accountFilter?.modes
      const notifyHook = typeof body?.notifyHook === 'string' ? body.notifyHook : undefined
      const base = { id: nextId(), submitTime: now(), state: body?.state, modes, notifyHook }
      if (route === 'imagine') {
        if (!body?.prompt) return reply(200, { code: 4, description: 'prompt must not be empty', result: null, properties: {} })
        if (/nofast/i.test(body.prompt) && Array.isArray(modes) && modes.includes('FAST'))
          return reply(200, { code: 3, description: 'No available account instance (fast hours used up)', result: null, properties: {} })
        if (/banned/i.test(body.prompt)) return reply(200, { code: 24, description: 'Banned prompt', result: null, properties: { promptEn: body.prompt, bannedWord: 'banned' } })
        return submitted({ ...base, action: 'IMAGINE', prompt: body.prompt, fails: /fail/i.test(body.prompt), slow: /slow/i.test(body.prompt) })
      }
      if (route === 'upload-discord-images') {
        const n = Array.isArray(body?.base64Array) ? body.base64Array.length : 0
        return reply(200, {
          code: 1,
          description: 'Upload success',
          result: Array.from({ length: n }, (_, i) => `https://cdn.discordapp.com/attachments/mock/upload-${i}.png`),
          properties: {},
        })
      }
      const originId = route === 'simple-change' ? String(body?.content ?? '').split(' ')[0] : body?.taskId
      const origin = originId ? mj.get(originId) : undefined
      if (['change', 'simple-change', 'action', 'modal'].includes(route) && !origin) {
        return reply(200, { code: 3, description: 'Related task does not exist or has expired', result: null, properties: {} })
      }
      const actionOf = {
        change: body?.action,
        'simple-change': 'UPSCALE',
        action: /upsample/.test(body?.customId ?? '') ? 'UPSCALE' : 'VARIATION',
        modal: 'MODAL',
        describe: 'DESCRIBE',
        blend: 'BLEND',
        shorten: 'SHORTEN',
        swap: 'SWAP_FACE',
      }
      const action = actionOf[route]
      if (!action) return reply(404, { error: 'Not Found', path })
      const prompt = origin?.prompt ?? body?.prompt ?? ''
      return submitted({ ...base, action, prompt, fails: /fail/i.test(prompt) })
    }
    const fetch = path.match(/^\/mj\/task\/([^/]+)\/(fetch|image-seed)$/)
    if (method === 'GET' && fetch) {
      const t = mj.get(fetch[1])
      if (!t) return reply(404, { code: 3, description: 'task not found' })
      if (fetch[2] === 'image-seed') return reply(200, { code: 1, description: 'success', result: String(1000 + t.id.length * 7919) })
      return reply(200, mjDto(t))
    }
    if (method === 'POST' && path === '/mj/task/list-by-condition') {
      const ids = Array.isArray(body?.ids) ? body.ids : []
      return reply(
        200,
        ids
          .map((id) => mj.get(id))
          .filter(Boolean)
          .map((t) => mjDto(t))
      )
    }
    return reply(404, { error: 'Not Found', path })
  }

  const sunoDto = (t) => {
    const p = phase(t)
    const done = p.status === 'SUCCESS'
    const data =
      t.action === 'LYRICS'
        ? { id: t.id, status: done ? 'complete' : 'running', title: t.title || 'Mock lyrics', text: done ? '[Verse]\nMock lyrics about ' + t.prompt : '' }
        : [0, 1].map((i) => ({
            id: `${t.id}-${i}`,
            video_url: done ? `https://cdn1.suno.ai/mock-${t.id}-${i}.mp4` : '',
            audio_url: p.status !== 'SUBMITTED' && !t.fails ? `https://cdn1.suno.ai/mock-${t.id}-${i}.mp3` : '',
            image_url: `https://cdn1.suno.ai/mock-${t.id}-${i}.jpeg`,
            image_large_url: `https://cdn1.suno.ai/mock-${t.id}-${i}-large.jpeg`,
            major_model_version: 'v3',
            model_name: t.mv,
            status: done ? 'complete' : p.status === 'FAILURE' ? 'error' : 'streaming',
            title: t.title || 'Mock song',
            text: `[Verse]\n${t.prompt}`,
            metadata: { tags: t.tags ?? '', prompt: t.prompt, gpt_description_prompt: t.description ?? '', duration: done ? 120.5 : null, error_type: null, error_message: null },
            user_id: 'upstream-user-123',
          }))
    return {
      task_id: t.id,
      action: t.action,
      status: p.status,
      fail_reason: p.status === 'FAILURE' ? 'Mock generation failed as requested' : '',
      submit_time: Math.floor(t.submitTime / 1000),
      start_time: p.status === 'SUBMITTED' ? 0 : Math.floor((t.submitTime + stepMs) / 1000),
      finish_time: p.progress === 100 ? Math.floor((t.submitTime + 3 * stepMs) / 1000) : 0,
      progress: `${p.progress}%`,
      data,
    }
  }

  function sunoApi(method, path, body) {
    const submit = path.match(/^\/suno\/submit\/(music|lyrics)$/)
    if (method === 'POST' && submit) {
      const action = submit[1].toUpperCase()
      const prompt = String(body?.prompt ?? body?.gpt_description_prompt ?? '')
      if (action === 'LYRICS' && !body?.prompt) return reply(400, { code: 'invalid_request', message: 'prompt is required', data: null })
      if (/banned/i.test(prompt)) return reply(400, { code: 'submit_failed', message: 'prompt contains banned words', data: null })
      const t = {
        id: crypto.randomUUID(),
        action,
        prompt,
        title: body?.title,
        tags: body?.tags,
        description: body?.gpt_description_prompt,
        mv: body?.mv ?? 'chirp-v3-0',
        submitTime: now(),
        fails: /fail/i.test(prompt),
        slow: /slow/i.test(prompt),
      }
      suno.set(t.id, t)
      return reply(200, { code: 'success', message: '', data: t.id })
    }
    const one = path.match(/^\/suno\/fetch\/([^/]+)$/)
    if (method === 'GET' && one) {
      const t = suno.get(one[1])
      return t ? reply(200, { code: 'success', message: '', data: sunoDto(t) }) : reply(404, { code: 'task_not_exist', message: 'task not exist', data: null })
    }
    if (method === 'POST' && path === '/suno/fetch') {
      const ids = Array.isArray(body?.ids) ? body.ids : []
      return reply(200, {
        code: 'success',
        message: '',
        data: ids
          .map((id) => suno.get(id))
          .filter(Boolean)
          .map(sunoDto),
      })
    }
    return reply(404, { code: 'not_found', message: `no route ${path}`, data: null })
  }

  const kling = new Map()
  const KLING_STATUS = { SUBMITTED: 'submitted', IN_PROGRESS: 'processing', SUCCESS: 'succeed', FAILURE: 'failed' }
  const klingTask = (t) => {
    const p = phase(t)
    const status = KLING_STATUS[p.status]
    return {
      task_id: t.id,
      task_status: status,
      ...(status === 'failed' ? { task_status_msg: 'Mock video failed as requested' } : {}),
      created_at: t.submitTime,
      updated_at: p.progress === 100 ? t.submitTime + 3 * stepMs : t.submitTime,
      ...(status === 'succeed' ? { task_result: { videos: [{ id: `${t.id}-v`, url: `https://cdn.klingai.com/mock/${t.id}.mp4`, duration: t.duration }] } } : {}),
    }
  }

  function klingApi(method, path, body) {
    const submit = path.match(/^\/kling\/v1\/videos\/(text2video|image2video)$/)
    if (method === 'POST' && submit) {
      const prompt = String(body?.prompt ?? '')
      if (submit[1] === 'image2video' && !body?.image) return reply(400, { code: 1201, message: 'image is required', request_id: 'mock' })
      if (/banned/i.test(prompt)) return reply(400, { code: 1301, message: 'The prompt contains sensitive content', request_id: 'mock' })
      const t = {
        id: `kl-${nextId()}`,
        action: submit[1],
        prompt,
        duration: String(body?.duration ?? '5'),
        submitTime: now(),
        fails: /fail/i.test(prompt),
        slow: /slow/i.test(prompt),
      }
      kling.set(t.id, t)
      return reply(200, { code: 0, message: 'SUCCEED', request_id: `req-${t.id}`, data: klingTask(t) })
    }
    const one = path.match(/^\/kling\/v1\/videos\/(text2video|image2video)\/([^/]+)$/)
    if (method === 'GET' && one) {
      const t = kling.get(one[2])
      if (!t || t.action !== one[1]) return reply(404, { code: 1203, message: 'task not found', request_id: 'mock' })
      return reply(200, { code: 0, message: 'SUCCEED', request_id: `req-${t.id}-get`, data: klingTask(t) })
    }
    return reply(404, { code: 1200, message: `no route ${path}`, request_id: 'mock' })
  }

  return {
    /** True when the path belongs to this mock. */
    handles: (path) => path.startsWith('/mj/') || path.startsWith('/suno/') || path.startsWith('/kling/'),
    /** Answer one request: `headers` is a lookup function (name → value or undefined). */
    handle(method, path, headers, body) {
      if (path.startsWith('/mj/')) {
        if (headers('mj-api-secret') === 'mock-401') return reply(401, { code: 401, description: 'unauthorized' })
        return midjourney(method, path, body)
      }
      const bearer = (headers('authorization') ?? '').replace(/^Bearer\s+/i, '')
      if (path.startsWith('/kling/')) {
        if (!bearer || bearer === 'mock-401') return reply(401, { code: 1000, message: 'Authentication failed', request_id: 'mock' })
        return klingApi(method, path, body)
      }
      if (!bearer || bearer === 'mock-401') return reply(401, { code: 'unauthorized', message: 'invalid token', data: null })
      return sunoApi(method, path, body)
    },
    tasks: { mj, suno, kling },
  }
}

/**
 * Consoles that outlive a deploy. A deploy replaces the hashed route chunks, so an open console's
 * next lazy route can fail to load: such a failure reloads the page once (to the new index and its
 * chunks; a sessionStorage mark stops a reload loop), and only a second failure shows the load
 * error with its type and address. A route whose chunk has not arrived after CHUNK_TIMEOUT_MS is
 * retried once, then treated as failed. When /api/status reports another console build than this
 * one, a notice offers the new version (components/new-version-notice.tsx).
 */

/** This console's build id ('' outside a Vite build, e.g. in unit tests). */
export const CONSOLE_BUILD = typeof __CONSOLE_BUILD__ === 'string' ? __CONSOLE_BUILD__ : ''

/** Console spec: a route chunk may take up to 120 s. */
export const CHUNK_TIMEOUT_MS = 120_000

const RELOAD_KEY = 'console-chunk-reload'
/** A reload within this time of the last one is a loop: the error is shown instead. */
const RELOAD_GUARD_MS = 5 * 60_000

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading (?:CSS )?chunk .* failed|route chunk timed out/i

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError'
  constructor(
    message: string,
    /** The address of the chunk that failed, when the browser named it. */
    readonly url: string
  ) {
    super(message)
  }
}

/** The failed chunk's address if `err` is a chunk-load failure, else undefined ('' when the browser gave none). */
export function chunkFailure(err: unknown): { url: string } | undefined {
  if (err instanceof ChunkLoadError) return { url: err.url }
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : ''
  if (!CHUNK_ERROR.test(message)) return undefined
  return { url: /(https?:\/\/\S+|\/\S+\.(?:m?js|css))/.exec(message)?.[1] ?? '' }
}

/** Reload the page to the deployed version, unless that was just done (then false: show the error). */
export function reloadForNewVersion(storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage, reload = () => window.location.reload(), now = Date.now()): boolean {
  const last = Number(storage.getItem(RELOAD_KEY) ?? 0)
  if (Number.isFinite(last) && now - last < RELOAD_GUARD_MS) return false
  storage.setItem(RELOAD_KEY, String(now))
  reload()
  return true
}

interface RouterLike {
  subscribe(event: 'onBeforeLoad' | 'onResolved', fn: () => void): () => void
  state: { status: string; location: { href: string } }
  invalidate(): Promise<unknown>
}

/**
 * Install the guard: Vite's preload failures reload once, and a route load still pending after
 * CHUNK_TIMEOUT_MS is retried once and then reported through `onTimeout` (a ChunkLoadError).
 */
export function installDeployGuard(router: RouterLike, onTimeout: (err: ChunkLoadError) => void, timeoutMs = CHUNK_TIMEOUT_MS) {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForNewVersion()) event.preventDefault()
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  let retried = false
  const watch = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (router.state.status !== 'pending') return
      if (!retried) {
        retried = true
        void router.invalidate()
        watch()
        return
      }
      retried = false
      onTimeout(new ChunkLoadError(`route chunk timed out after ${Math.round(timeoutMs / 1000)} s`, router.state.location.href))
    }, timeoutMs)
  }
  router.subscribe('onBeforeLoad', () => {
    retried = false
    watch()
  })
  router.subscribe('onResolved', () => clearTimeout(timer))
}

/**
 * The benchmarks' ceiling: scripts/bench/passthrough-worker.js on its own direct workerd socket, with
 * the same direct network binding for its upstream call as `npm start` gives the gateway.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Miniflare, Log, LogLevel, convertV4MiniflareOptions } from 'miniflare'
import { directNetwork } from '../serve.mjs'
import { pidListeningOn } from './measure.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * The ceiling: a 6-line pass-through Worker on its own direct workerd socket and with the direct
 * network binding for its upstream call, like `npm start` serves the gateway. `script` runs another
 * Worker the same way (the stream plumbing shapes of scripts/bench/plumbing/).
 */
export async function startPassthrough(upstream, { script = 'scripts/bench/passthrough-worker.js', name = 'passthrough', bindings = {} } = {}) {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      log: new Log(LogLevel.ERROR),
      telemetry: { enabled: false },
      cf: false,
      workers: [
        {
          name,
          modules: true,
          scriptPath: path.join(root, script),
          compatibilityDate: '2026-11-01',
          bindings: { UPSTREAM: upstream, ...bindings },
          serviceBindings: directNetwork(),
          unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
        },
      ],
    })
  )
  await mf.ready
  const url = (await mf.unsafeGetDirectURL(name)).href.replace(/\/$/, '')
  return { url, pid: pidListeningOn(Number(new URL(url).port)), stop: () => mf.dispose() }
}

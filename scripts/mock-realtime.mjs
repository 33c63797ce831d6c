/**
 * The mock upstream's OpenAI Realtime endpoint (GET /v1/realtime?model=… upgraded to a WebSocket):
 * it checks the Bearer key and the OpenAI-Beta header, sends session.created, and answers every
 * response.create with a text delta and a response.done carrying realtime usage (text, audio and
 * cached tokens), as OpenAI does.
 */
import { WebSocketServer } from 'ws'

export const REALTIME_USAGE = {
  total_tokens: 300,
  input_tokens: 200,
  output_tokens: 100,
  input_token_details: { cached_tokens: 50, text_tokens: 120, audio_tokens: 80 },
  output_token_details: { text_tokens: 40, audio_tokens: 60 },
}

export function attachRealtime(server) {
  const wss = new WebSocketServer({ noServer: true })
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url, 'http://mock')
    if (!url.pathname.endsWith('/v1/realtime') || !/^Bearer\s+\S+/.test(req.headers.authorization ?? '')) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n')
      return
    }
    const model = url.searchParams.get('model') ?? 'gpt-4o-realtime-preview'
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ type: 'session.created', event_id: 'evt_0', session: { id: 'sess_mock', object: 'realtime.session', model } }))
      let n = 0
      ws.on('message', (raw) => {
        let event
        try {
          event = JSON.parse(String(raw))
        } catch {
          return ws.send(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'frames must be JSON' } }))
        }
        if (event.type !== 'response.create') return
        const id = `resp_mock${++n}`
        ws.send(JSON.stringify({ type: 'response.created', response: { id, object: 'realtime.response', status: 'in_progress' } }))
        ws.send(JSON.stringify({ type: 'response.text.delta', response_id: id, delta: 'Hello from the mock realtime upstream.' }))
        ws.send(JSON.stringify({ type: 'response.done', response: { id, object: 'realtime.response', status: 'completed', usage: REALTIME_USAGE } }))
      })
    })
  })
}

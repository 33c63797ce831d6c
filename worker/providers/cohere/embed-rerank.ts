/** OpenAI embeddings ↔ Cohere embed v2, and the Jina/Cohere-style rerank body ↔ Cohere rerank v2. */
import type { Usage } from '../../billing/formula'

export function toCohereEmbed(json: Record<string, unknown>, model: string): Record<string, unknown> {
  const input = json.input
  const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')]
  const out: Record<string, unknown> = {
    model,
    texts,
    // v3+ models require an input type; documents are the common case, the client may choose another.
    input_type: typeof json.input_type === 'string' ? json.input_type : 'search_document',
    embedding_types: ['float'],
  }
  if (typeof json.dimensions === 'number') out.output_dimension = json.dimensions
  return out
}

/** Little-endian float32 bytes in base64, as OpenAI answers `encoding_format: "base64"` (the SDKs' default). */
function float32Base64(vector: number[]): string {
  const bytes = new Uint8Array(new Float32Array(vector).buffer)
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin)
}

export function fromCohereEmbed(body: any, request: Record<string, unknown>, model: string): { body: unknown; usage?: Usage } {
  const floats: number[][] = body?.embeddings?.float ?? (Array.isArray(body?.embeddings) ? body.embeddings : [])
  const vectors = request.encoding_format === 'base64' ? floats.map(float32Base64) : floats
  const tokens = body?.meta?.billed_units?.input_tokens
  const usage = typeof tokens === 'number' ? { promptTokens: tokens, completionTokens: 0 } : undefined
  return {
    body: {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model,
      usage: { prompt_tokens: tokens ?? 0, total_tokens: tokens ?? 0 },
    },
    usage,
  }
}

const docText = (d: unknown) => (typeof d === 'string' ? d : d && typeof d === 'object' && 'text' in d ? String((d as { text: unknown }).text) : JSON.stringify(d))

export function toCohereRerank(json: Record<string, unknown>, model: string): Record<string, unknown> {
  const documents = Array.isArray(json.documents) ? json.documents.map(docText) : []
  const out: Record<string, unknown> = { model, query: json.query, documents }
  if (typeof json.top_n === 'number') out.top_n = json.top_n
  if (typeof json.max_tokens_per_doc === 'number') out.max_tokens_per_doc = json.max_tokens_per_doc
  return out
}

/** Cohere's results, with the documents echoed when the client asked (v2 no longer returns them). */
export function fromCohereRerank(body: any, request: Record<string, unknown>, model: string): { body: unknown; usage?: Usage } {
  const docs = Array.isArray(request.documents) ? request.documents : []
  const results = (body?.results ?? []).map((r: any) => ({
    index: r.index,
    relevance_score: r.relevance_score,
    ...(request.return_documents ? { document: { text: docText(docs[r.index]) } } : {}),
  }))
  return { body: { id: body?.id, model, results, meta: body?.meta } }
}

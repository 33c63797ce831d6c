/** The error every supplier adapter throws when a 2xx upstream body cannot be parsed (the relay treats it like a 5xx). */
export class MalformedUpstreamError extends Error {}

/** The JSON body of a 2xx upstream answer; a body that does not parse is a MalformedUpstreamError. */
export async function upstreamJson<T = unknown>(res: Response): Promise<T> {
  const text = await res.text()
  try {
    return JSON.parse(text) as T
  } catch (err) {
    throw new MalformedUpstreamError(`upstream returned malformed JSON: ${(err as Error).message}`)
  }
}

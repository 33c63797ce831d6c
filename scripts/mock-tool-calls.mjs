/**
 * How the mock upstream's OpenAI chat model uses tools: it calls the first offered tool with
 * arguments made from its schema, and answers in words once the last message is a tool's result
 * (the MCP tool loop's e2e relies on both, streamed or not).
 */

/** The arguments the mock calls an OpenAI tool with: 2, 3, … for its number parameters, else a city. */
export function toolArguments(tool) {
  const numbers = Object.entries(tool.function?.parameters?.properties ?? {}).filter(([, schema]) => schema?.type === 'number' || schema?.type === 'integer')
  return JSON.stringify(numbers.length ? Object.fromEntries(numbers.map(([name], i) => [name, i + 2])) : { city: 'Paris' })
}

/** The last message when it is a tool's result: like a real model, the mock then answers in words. */
export const lastToolResult = (body) => (Array.isArray(body.messages) && body.messages.at(-1)?.role === 'tool' ? body.messages.at(-1) : undefined)

export const contentText = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p?.text ?? '').join('') : '')

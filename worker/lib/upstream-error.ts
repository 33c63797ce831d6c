/** The error every supplier adapter throws when a 2xx upstream body cannot be parsed (the relay treats it like a 5xx). */
export class MalformedUpstreamError extends Error {}

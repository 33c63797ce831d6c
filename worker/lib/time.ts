/** Time helpers: the database stores Unix seconds (one-hub compatible); durations are milliseconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** YYYY-MM-DD (UTC) of a Unix-seconds timestamp. */
export const utcDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)

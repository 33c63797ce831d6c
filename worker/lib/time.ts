/** Time helpers: the database stores Unix seconds (one-hub compatible); durations are milliseconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000)

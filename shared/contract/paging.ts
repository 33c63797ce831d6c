/** The page envelope every management list answers with (one-hub's shape), and the list query it takes. */

export interface Page<T> {
  data: T[]
  /** 1-based. */
  page: number
  size: number
  total_count: number
}

/** Query parameters of a list: `order` is a field name, `-field` for descending. */
export interface ListSearch {
  p?: number
  page_size?: number
  order?: string
  keyword?: string
}

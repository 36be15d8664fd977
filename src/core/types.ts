/** The nine endpoints of the service. */
export type Endpoint =
  | '/swap/route'
  | '/swap/info'
  | '/overview/pairs'
  | '/overview/tokens'
  | '/overview/token/price'
  | '/get_path'
  | '/get_pairs'
  | '/get_tokens'
  | '/get_tokens_data'

/** The options every action takes as its third argument. */
export type RequestOptions = {
  /** Aborts the request; the action then rejects with the standard `AbortError`. */
  signal?: AbortSignal | undefined
}

export type Prettify<type> = { [key in keyof type]: type[key] } & {}

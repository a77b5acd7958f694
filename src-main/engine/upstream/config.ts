/** One model role served by an OpenAI-compatible server, resolved (settings, environment, key). */
export interface UpstreamConfig {
  /** The API root, e.g. `http://127.0.0.1:11434/v1` (the client appends `/chat/completions`). */
  baseURL: string;
  /** `null`: the server's only model, as its `GET /models` lists it. */
  model: string | null;
  apiKey: string | null;
  /** Per upstream request. */
  timeoutMs: number;
  /**
   * Upstream requests in flight at once for this role's server and model,
   * across all requests of this process.
   */
  concurrency: number;
  /**
   * Whose allowance `concurrency` is (the model role): two roles on one
   * server each keep their own (audit 1 and fix 8 is at most 1 audit request
   * and 8 fix requests at once). Default: one allowance per server and model.
   */
  scope?: string;
}

/** What an upstream server is known by (capabilities, the concurrency limit). */
export const serverKey = (config: Pick<UpstreamConfig, 'baseURL' | 'model'>): string =>
  `${config.baseURL.replace(/\/+$/, '')}|${config.model ?? ''}`;

/** `llama3.1 at http://127.0.0.1:11434/v1`: how messages name a server (never with the key). */
export const describeServer = (baseURL: string, model: string | null): string =>
  `${model ?? "the server's model"} at ${baseURL}`;

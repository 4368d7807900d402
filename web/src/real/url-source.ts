// A model on a server, for an embed that names one (its model attribute): the model file streamed
// into the module as it arrives, the files beside it fetched whole. The server must allow the
// page's origin (CORS) and say the file's size, which the model's memory is planned from.
import type M from '../../../cpp/wasm/attention-model';
import type { ModelSource } from './own-files';
import type { ModelUrls } from './protocol';

/** The last part of a URL's path: what the view calls the model. */
export function fileName(url: string): string {
  try {
    const path = new URL(url).pathname;
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || url;
  } catch {
    return url;
  }
}

async function fetched(url: string, signal?: AbortSignal): Promise<Response> {
  let r: Response;
  try {
    r = await fetch(url, { credentials: 'omit', signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new Error(`${url} could not be fetched (is the server up, and does it allow this page, CORS?)`);
  }
  if (!r.ok) throw new Error(`${url}: the server answered ${r.status}`);
  return r;
}

/** `signal` stops the fetches, the model's while its server has not answered among them. */
export async function urlSource(urls: ModelUrls, signal?: AbortSignal): Promise<ModelSource> {
  const response = await fetched(urls.model, signal);
  const length = response.headers.get('content-length');
  const size = length !== null && /^\d+$/.test(length) ? Number(length) : NaN;
  if (!Number.isSafeInteger(size)) {
    void response.body?.cancel();
    throw new Error(`${urls.model}: the server did not say the file's size (Content-Length), which its memory is planned from`);
  }
  return {
    name: fileName(urls.model),
    size,
    async besides() {
      const out: M.ModelFiles = {};
      for (const key of ['tokenizer', 'vocab', 'merges', 'config'] as const) {
        const url = urls[key];
        if (url) out[key] = new Uint8Array(await (await fetched(url, signal)).arrayBuffer());
      }
      return out;
    },
    async *pieces() {
      const body = response.body;
      if (!body) return;
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        void reader.cancel().catch(() => undefined);
      }
    },
  };
}

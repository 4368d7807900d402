// The shipped model's file, next to the page (web/build.mjs copies data/model/model.safetensors
// there). A page opened from a file cannot fetch it: the error says so, and the view explains.

export const MODEL_FILE = 'model.safetensors';

export function fetchModel(): Promise<Uint8Array> {
  return fetch(MODEL_FILE).then(
    (r) => {
      if (!r.ok) throw new Error(`${MODEL_FILE}: the server answered ${r.status}`);
      return r.arrayBuffer().then((b) => new Uint8Array(b));
    },
    () => {
      throw new Error(`${MODEL_FILE} could not be fetched`);
    },
  );
}

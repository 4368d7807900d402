// The files that come beside a GPT-2 checkpoint on Hugging Face, written here for tests and the
// benchmark, which must not download one: tokenizer.json (from GPT-2's two tokenizer files, with
// its merges in either of the forms such files use) and config.json.

/** tokenizer.json for GPT-2's byte-level BPE: `vocab` is vocab.json's text, `merges` merges.txt's.
 * `pairs` writes each merge as [left, right], as newer tokenizers do, instead of "left right". */
export function tokenizerJson(vocab, merges, { pairs = false } = {}) {
  const ids = JSON.parse(vocab);
  const lines = merges.split('\n').filter((line, i) => line && !(i === 0 && line.startsWith('#version')));
  const special = Object.entries(ids).filter(([token]) => /^<\|.*\|>$/.test(token));
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: special.map(([content, id]) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: true, special: true })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
      fuse_unk: false, byte_fallback: false, vocab: ids,
      merges: pairs ? lines.map((line) => line.split(' ')) : lines,
    },
  });
}

/** config.json as transformers writes it for GPT2LMHeadModel. */
export function configJson({ vocab, context, width, layers, heads }) {
  return JSON.stringify({
    activation_function: 'gelu_new', architectures: ['GPT2LMHeadModel'], bos_token_id: vocab - 1, eos_token_id: vocab - 1,
    layer_norm_epsilon: 1e-5, model_type: 'gpt2', n_ctx: context, n_embd: width, n_head: heads, n_layer: layers,
    n_positions: context, scale_attn_weights: true, vocab_size: vocab,
  }, null, 2);
}

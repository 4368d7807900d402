// The Real model view’s words (real.js), in English: a section of the catalog that comes with its
// part of the page. section-real.ts registers it. Another language is a file with the same keys.

export const realEn = {
  'real.title': 'Real model: a small GPT reads your sentence',
  'real.intro':
    'A language model trained for this page ({layers} layers of {heads} heads, {size}) on English (the Bible, Moby-Dick, presidents’ addresses) and classical Chinese poems. It knows only what it read, so after a modern Chinese sentence its guesses lean towards old verse. It cuts your sentence into tokens, every head attends over them, and it guesses the next token. Press a head to open its learned Q, K and V in the playground below.',
  'real.ownOpen': 'Open your own model…',
  'real.ownNote':
    'Any GPT-2-family checkpoint from your disk: its .safetensors file with its tokenizer.json (or vocab.json and merges.txt) and config.json. Choose them together, or drop them anywhere on this page. Nothing is uploaded: the files are read here, in your browser.',
  'real.ownDrop': 'Drop the model’s files to open them',
  'real.ownReading': 'Reading {name}: {loaded} of {total}',
  'real.ownAsking': 'Asking for {name}: its server has not answered yet.',
  'real.ownMeasuring': 'Measuring every head of {name} on repeated random tokens…',
  'real.ownCancel': 'Stop',
  'real.ownBack': 'Back to this page’s model',
  'real.ownNoModel': 'There is no model among these files: choose its .safetensors file with them.',
  'real.ownTwoModels': 'Open one model at a time: {names} are more than one.',
  'real.ownUnknown':
    'This page does not know what {names} is for: a model comes as a .safetensors file, tokenizer.json (or vocab.json and merges.txt) and config.json.',
  'real.ownRefused': 'That model was not opened, and the one before is still here: {reason}',
  'real.ownTooLarge':
    'That model needs {need} of memory to open, and this page can give it only {free}: it was not read. The model before is still here.',
  'real.ownCancelled': 'Stopped. The model before is still here.',
  'real.ownIntro':
    'Your own model, {name}: {layers} layers of {heads} heads, width {width}, {size}, read and run here, in your browser. Press a head to open its Q, K and V in the playground below.',
  'real.ownOffer':
    'This figure runs a model from {host}: {name}, {size}. It is downloaded only when you ask, and read in your browser.',
  'real.ownSizeUnknown': 'of a size the server did not say',
  'real.ownSizeLater': 'of a size that site is asked only when you load it',
  'real.ownLoad': 'Load that model',
  'real.close': 'Back to the playground',
  'real.sentence': 'Sentence for the model',
  'real.read': 'Read',
  'real.example': 'In the beginning God created the heavens and the earth. And the earth was',
  'real.examples': 'Examples',
  'real.loading': 'Loading the model…',
  'real.reading': 'The model is reading…',
  'real.loadFailed': 'The model could not be loaded: {reason}.',
  'real.fromFile':
    'This page was opened from a file, which does not hold the page’s own model. Open one from your disk with “Open your own model…” above: any GPT-2-family checkpoint, or this page’s own, model.safetensors, which sits beside index.html wherever the page is served.',
  'real.openFailed': 'The model file is damaged, so it was refused: {reason}',
  'real.runFailed': 'The model could not read this text: {reason}',
  'real.noSuchHead':
    'The link opens head {head} of layer {layer}, but this model has {layers} layers of {heads} heads: no head is open. Press one below to open it.',
  'real.empty': 'Type a sentence, or pick an example: the model needs some text to read.',
  'real.tokens': 'The {n} tokens the model reads',
  'real.tokensNote':
    'First <|endoftext|>, where every text starts, then your text in the pieces the model knows. Under each: its surprise in bits, how unlikely the model found it there.',
  'real.start': 'start',
  'real.bits': '{bits} bits',
  'real.partial': 'a byte of a character the tokenizer has no token for',
  'real.partialNote':
    '{n} of them (dashed) are bytes of characters the tokenizer does not know: the model reads them byte by byte.',
  'real.dropped':
    'Your text is longer than the model’s context of {context} tokens: it reads only the last {kept}; the first {dropped} are left out.',
  'real.droppedWindow':
    'Your text is longer than the {window} tokens this page shows of this model, since it keeps the weights of all {heads} heads for each: it reads only the last {kept}; the first {dropped} are left out.',
  'real.generated': 'The last {n} (underlined) the model wrote itself.',
  'real.predictions': 'What comes next? The model’s five likeliest tokens',
  'real.generate': 'Generate',
  'real.generateNote':
    'Generate adds the likeliest token. Only that token is computed: its K and V join the cache, and its query attends over everything cached.',
  'real.cache': 'KV cache: {n} tokens, each with a row of K and a row of V in each of the {heads} heads ({numbers} numbers).',
  'real.full': 'The context is full ({context} tokens): the model cannot read more.',
  'real.fullWindow':
    'This page shows at most {window} tokens of this model, every head’s weights for each: it cannot read more here.',
  'real.heads': 'Every head on your sentence',
  'real.headsNote':
    'One square per head, a row per token: row i is token i’s attention over the tokens up to it, darker is more weight. Each head is named by the pattern it scored best on repeated random tokens (1: all its weight where the pattern says), if that score is at least {clear}, more than any head of random weights scores.',
  'real.lesson': 'Lesson: what real heads do',
  'real.layer': 'Layer {layer}',
  'real.headName': 'L{layer} H{head} · {pattern} {score}',
  'real.headLabel': 'Layer {layer}, head {head}: {pattern}, score {score}. Open its steps in the playground.',
  'real.headNameUnclear': 'L{layer} H{head} · no clear pattern ({pattern} {score})',
  'real.headLabelUnclear':
    'Layer {layer}, head {head}: no clear pattern; its best, {pattern}, scores {score}, as a head of random weights can. Open its steps in the playground.',
  'real.pattern.previous': 'previous token',
  'real.pattern.first': 'first token',
  'real.pattern.same': 'same token',
  'real.pattern.induction': 'induction',
  'real.opened':
    'Layer {layer}, head {head} is open in the playground below: its Q, K and V are the model’s own, and every number explains itself.',
  'real.inContext':
    'Learning in context: on random tokens repeated, the model needs {second} bits a token for the second copy, which it can copy from the first, where a blind guess among its tokens needs {blind}. (The first copy costs it {first}.)',
};

export type RealKey = keyof typeof realEn;
export type RealMessages = Record<RealKey, string>;

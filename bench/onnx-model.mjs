// A tiny ONNX model of attention, softmax(Q·Kᵀ·scale)·V, encoded by hand (protobuf wire format)
// so the benchmark needs no model file and no ONNX tooling. Field numbers are from onnx.proto
// (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto).

function varint(n) {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;  // negative int64s are ten bytes
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}
const bytes = (s) => [...new TextEncoder().encode(s)];
const field = (num, wire, payload) => [...varint((num << 3) | wire), ...payload];
const int = (num, n) => field(num, 0, varint(n));
const str = (num, s) => field(num, 2, [...varint(bytes(s).length), ...bytes(s)]);
const msg = (num, body) => field(num, 2, [...varint(body.length), ...body]);
const f32 = (num, x) => field(num, 5, [...new Uint8Array(new Float32Array([x]).buffer)]);

function node(op, inputs, outputs, attributes = []) {
  return [...inputs.flatMap((s) => str(1, s)), ...outputs.flatMap((s) => str(2, s)),
    ...str(4, op), ...attributes.flatMap((a) => msg(5, a))];
}
const intAttr = (name, i) => [...str(1, name), ...int(20, 2), ...int(3, i)];
const intsAttr = (name, list) => [...str(1, name), ...int(20, 7), ...list.flatMap((i) => int(8, i))];
function tensorInfo(name, dims) {  // float tensor with symbolic or fixed dims
  const shape = dims.flatMap((d) => msg(1, typeof d === 'string' ? str(2, d) : int(1, d)));
  return [...str(1, name), ...msg(2, msg(1, [...int(1, 1), ...msg(2, shape)]))];
}

export function attentionModel(scale) {
  const scaleTensor = [...str(8, 'scale'), ...int(2, 1), ...f32(4, scale)];  // a float scalar
  const graph = [
    ...msg(1, node('Transpose', ['K'], ['Kt'], [intsAttr('perm', [1, 0])])),
    ...msg(1, node('MatMul', ['Q', 'Kt'], ['S'])),
    ...msg(1, node('Mul', ['S', 'scale'], ['Ss'])),
    ...msg(1, node('Softmax', ['Ss'], ['P'], [intAttr('axis', -1)])),
    ...msg(1, node('MatMul', ['P', 'V'], ['O'])),
    ...str(2, 'attention'),
    ...msg(5, scaleTensor),
    ...msg(11, tensorInfo('Q', ['n', 'd'])),
    ...msg(11, tensorInfo('K', ['m', 'd'])),
    ...msg(11, tensorInfo('V', ['m', 'dv'])),
    ...msg(12, tensorInfo('O', ['n', 'dv'])),
  ];
  return new Uint8Array([...int(1, 8), ...str(2, 'attention-playground-bench'),
    ...msg(7, graph), ...msg(8, [...str(1, ''), ...int(2, 17)])]);
}

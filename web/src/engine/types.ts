// The engine's types: re-exported from the file that ships beside the engine
// (cpp/wasm/attention-engine.d.ts), so the page and the engine's users read one definition and
// `tsc` fails when the page calls the engine in a way the shipped types do not allow.
import type E from '../../../cpp/wasm/attention-engine';

export type Engine = E.Engine;
export type Limits = E.Limits;
export type Mat = E.Mat;
export type BitMat = E.BitMat;
export type MatrixInput = E.MatrixInput;
export type ErrorCode = E.ErrorCode;
export type EngineError = E.EngineError;
export type Failure = E.Failure;
export type Similarity = E.Similarity;
export type Scale = E.Scale;
export type Normalization = E.Normalization;
export type RowProblem = E.RowProblem;
export type StepOptions = E.StepOptions;
export type AttentionOptions = E.AttentionOptions;
export type RowStats = E.RowStats;
export type RowTrace = E.RowTrace;
export type Steps = E.Steps;
export type HeadSteps = E.HeadSteps;
export type MultiHeadOptions = E.MultiHeadOptions;
export type MultiHead = E.MultiHead;
export type CellExplanation = E.CellExplanation;
export type OutputExplanation = E.OutputExplanation;
export type Plane = E.Plane;
export type Token = E.Token;
export type Embedding = E.Embedding;
export type LoadedLexicon = E.LoadedLexicon;
export type LexiconRef = E.LexiconRef;
export type FastOptions = E.FastOptions;
export type FastResult = E.FastResult;
export type EntropyRow = E.EntropyRow;
export type ProjectionExplanation = E.ProjectionExplanation;
export type HeadWeights = E.HeadWeights;

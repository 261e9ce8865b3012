// The RSL compiler: RenderMan Shading Language (RI 3.2) to WGSL compute kernels.
//
//   source ─▶ preprocessor ─▶ lexer ─▶ parser (AST with positions) ─▶ type checker (overloads from
//   the standard-library table, implicit conversions, uniform/varying) ─▶ lowering (inlining, one
//   IR module per shading pipeline) ─▶ passes (store forwarding, constant folding, illuminance
//   merging, DCE, derivative relocation) ─▶ WGSL: one kernel, one workgroup per grid; values the
//   uniformity analysis proves uniform (and position-independent) computed once per grid by invocation 0.
//
// compilePipeline() is the entry point; gridLayout() says how grids sit in memory (the dicer writes
// exactly that); packParameters() fills the parameter block the kernel reads, including the space
// matrices (ParamLayout.spaceMatrices: each instance's "shader" space and the primitive's "object"
// space live in the block, the frame-wide spaces in FrameUniforms). interpret() is the
// reference: it runs a compiled pipeline's IR on the CPU for one small grid, with the kernel's
// finite-difference derivatives, and counts light-shader calls as kernels compiled with
// countLightEvaluations do.
//
// Message passing: surface(), displacement() and atmosphere() read another shader's parameter as it
// is when the call runs (every instance's parameters are bound before any shader runs; a light reads
// them through module-scope variables); lightsource() inside an illuminance loop reads the current
// light's parameter after the light ran (output parameters included: IrModule.messages), and the
// standard diffuse()/specular()/phong() scale each light by 1 - __nondiffuse / 1 - __nonspecular.
// incident()/opposite() warn and return 0 (interior/exterior volumes need ray tracing). Information:
// rendererinfo() and option() are compile-time constants (PipelineDescription.options, only the names
// CompiledPipeline.optionNames lists need be given); attribute() reads the primitive's value from the
// parameter block (ParamLayout.attributes, packParameters' "attribute:NAME"); textureinfo() warns and
// returns 0. Node-only file access (#include, shader search path) lives in
// node-resolver.ts, which this module does not import.
export { compilePipeline, pipelineKey, ShaderCompiler } from './compile.ts';
export type { CompiledPipeline, PipelineDescription, ShaderRef } from './compile.ts';
export type { AttributeEntry, MatchTableEntry, ParamEntry, ParamLayout, SpaceMatrixEntry } from '../layout/param-layout.ts';
export { RENDERER_INFO } from './lower.ts';
export { packParameters } from './params.ts';
export {
  FRAME_UNIFORMS_BYTES, FRAME_UNIFORMS_WGSL, frameUniformWords, GRID_INFO, gridLayout, OUTPUT_GRID_VARIABLES, SPACES,
  STANDARD_GRID_VARIABLES,
} from '../layout/grid-layout.ts';
export type { GridLayout, GridVariable, GridVariableType, SpaceName } from '../layout/grid-layout.ts';
export { Diagnostics, formatDiagnostic, RslCompileError } from './diagnostics.ts';
export type { Diagnostic, SourcePos } from './diagnostics.ts';
export { checkSource, parseSource } from './frontend.ts';
export type { IncludeResolver } from './preprocessor.ts';
export { STANDARD_SHADERS, standardShaderSource } from './standard-shaders.ts';
export { BUILTINS } from './stdlib.ts';
export { interpret } from './interpreter/interpreter.ts';
export type { GridValues, Interpretable, InterpreterInput, InterpreterResult } from './interpreter/interpreter.ts';
